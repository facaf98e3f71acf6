import Foundation
import PostgresNIO
import SwitchboardCore

extension PostgresStore: DeliveryState {
    public func messagesToDeliver(to device: DeviceAddress, seqs: ClosedRange<Int64>, lastDeliveredBefore cutoff: Int64, now: Int64, limit: Int) async throws -> [Message] {
        try await all(
            """
            WITH picked AS (
                SELECT message_seq FROM device_inbox
                WHERE client_id = \(device.clientID) AND device_key = \(device.key)
                    AND message_seq BETWEEN \(seqs.lowerBound) AND \(seqs.upperBound) AND delivered_at < \(cutoff)
                ORDER BY message_seq LIMIT \(limit)
            ), sent AS (
                -- The cutoff again: a row another reader took since this statement's snapshot
                -- was locked by it, and is re-read here once it commits; without the check it
                -- would be taken (and sent) twice.
                UPDATE device_inbox SET delivered_at = \(now) FROM picked
                WHERE device_inbox.client_id = \(device.clientID) AND device_inbox.device_key = \(device.key)
                    AND device_inbox.message_seq = picked.message_seq AND device_inbox.delivered_at < \(cutoff)
                RETURNING device_inbox.message_seq
            )
            SELECT message.* FROM message JOIN sent ON message.seq = sent.message_seq ORDER BY message.seq
            """
        ).map(RowMapping.message)
    }

    public func trimQueue(of device: DeviceAddress, keepingPerConversation count: Int) async throws {
        try await run(
            """
            DELETE FROM device_inbox WHERE client_id = \(device.clientID) AND device_key = \(device.key) AND message_seq IN (
                SELECT seq FROM (
                    SELECT message.seq AS seq,
                        ROW_NUMBER() OVER (PARTITION BY message.conversation_id ORDER BY message.seq DESC) AS newness
                    FROM device_inbox JOIN message ON message.seq = device_inbox.message_seq
                    WHERE device_inbox.client_id = \(device.clientID) AND device_inbox.device_key = \(device.key)
                ) AS ranked WHERE newness > \(count)
            )
            """
        )
    }

    public func acknowledge(_ device: DeviceAddress, messageIDs: [String]) async throws -> [AcknowledgedMessage] {
        guard !messageIDs.isEmpty else { return [] }
        return try await acknowledge(device) { connection in
            try await connection.all(
                """
                DELETE FROM device_inbox USING message
                WHERE device_inbox.message_seq = message.seq AND device_inbox.client_id = \(device.clientID)
                    AND device_inbox.device_key = \(device.key) AND message.id = ANY(\(messageIDs))
                RETURNING message.id, message.conversation_id, message.sender, message.timestamp, message.wants_receipt
                """,
                logger
            )
        }
    }

    public func acknowledge(_ device: DeviceAddress, conversationID: String, timestamps range: ClosedRange<Int64>) async throws -> [AcknowledgedMessage] {
        try await acknowledge(device) { connection in
            try await connection.all(
                """
                DELETE FROM device_inbox USING message
                WHERE device_inbox.message_seq = message.seq AND device_inbox.client_id = \(device.clientID)
                    AND device_inbox.device_key = \(device.key) AND message.conversation_id = \(conversationID)
                    AND message.timestamp BETWEEN \(range.lowerBound) AND \(range.upperBound)
                RETURNING message.id, message.conversation_id, message.sender, message.timestamp, message.wants_receipt
                """,
                logger
            )
        }
    }

    /// Takes the messages `take` deletes off the device's queue and moves its client's
    /// delivered position in their conversations past them.
    private func acknowledge(
        _ device: DeviceAddress, take: (PostgresConnection) async throws -> [PostgresRandomAccessRow]
    ) async throws -> [AcknowledgedMessage] {
        try await transaction { connection in
            let messages = try await take(connection).map { row in
                AcknowledgedMessage(
                    id: row.string("id") ?? "", conversationID: row.string("conversation_id") ?? "", from: row.string("sender") ?? "",
                    timestamp: row.int64("timestamp") ?? 0, wantsReceipt: row.bool("wants_receipt") ?? false
                )
            }
            var newest: [String: Int64] = [:]
            for message in messages { newest[message.conversationID] = max(newest[message.conversationID] ?? 0, message.timestamp) }
            for (conversationID, timestamp) in newest {
                try await Self.advance(clientID: device.clientID, in: conversationID, acknowledged: timestamp, read: 0, connection, logger)
            }
            return messages
        }
    }

    public func deviceSeen(_ device: DeviceAddress, at time: Int64) async throws -> Int64? {
        try await transaction { connection in
            let known = try await connection.all(
                "SELECT device_key, last_seen_at FROM client_device WHERE client_id = \(device.clientID) FOR UPDATE", logger
            )
            if known.isEmpty, !device.key.isEmpty {
                // What was queued before the client ever logged in is its first device's.
                try await connection.query(
                    "UPDATE device_inbox SET device_key = \(device.key) WHERE client_id = \(device.clientID) AND device_key = ''", logger: logger
                )
            }
            try await connection.query(
                """
                INSERT INTO client_device (client_id, device_key, last_seen_at) VALUES (\(device.clientID), \(device.key), \(time))
                ON CONFLICT (client_id, device_key) DO UPDATE SET last_seen_at = excluded.last_seen_at
                """,
                logger: logger
            )
            return known.first { $0.string("device_key") == device.key }?.int64("last_seen_at")
        }
    }

    public func clientsSeen(since time: Int64) async throws -> [String] {
        try await all("SELECT DISTINCT client_id FROM client_device WHERE last_seen_at >= \(time)").compactMap { $0.string("client_id") }
    }

    public func forgetDevices(unseenSince time: Int64) async throws -> Int {
        try await transaction { connection in
            try await connection.query(
                """
                DELETE FROM device_inbox WHERE (client_id, device_key) IN (
                    SELECT client_id, device_key FROM client_device WHERE last_seen_at < \(time))
                """,
                logger: logger
            )
            try await connection.query("DELETE FROM notice WHERE created_at < \(time)", logger: logger)
            try await connection.query("DELETE FROM broadcast WHERE valid_till < \(time)", logger: logger)
            return try await connection.all("DELETE FROM client_device WHERE last_seen_at < \(time) RETURNING client_id", logger).count
        }
    }

    public func markRead(clientID: String, conversationID: String, upTo timestamp: Int64) async throws {
        try await client.withConnection { connection in
            try await Self.advance(clientID: clientID, in: conversationID, acknowledged: timestamp, read: timestamp, connection, logger)
        }
    }

    static func advance(clientID: String, in conversationID: String, acknowledged: Int64, read: Int64, _ connection: PostgresConnection, _ logger: Logger) async throws {
        try await connection.query(
            """
            INSERT INTO receipt_position (conversation_id, client_id, acknowledged_up_to, read_up_to)
            VALUES (\(conversationID), \(clientID), \(acknowledged), \(read))
            ON CONFLICT (conversation_id, client_id) DO UPDATE SET
                acknowledged_up_to = GREATEST(receipt_position.acknowledged_up_to, excluded.acknowledged_up_to),
                read_up_to = GREATEST(receipt_position.read_up_to, excluded.read_up_to)
            """,
            logger: logger
        )
    }

    public func receiptPositions(conversationID: String) async throws -> [ReceiptPosition] {
        try await all("SELECT * FROM receipt_position WHERE conversation_id = \(conversationID)").map { row in
            ReceiptPosition(clientID: row.string("client_id") ?? "", acknowledgedUpTo: row.int64("acknowledged_up_to") ?? 0, readUpTo: row.int64("read_up_to") ?? 0)
        }
    }

    public func unreadSummaries(for clientID: String, since: Int64, conversationID: String?) async throws -> [UnreadSummary] {
        let counts = try await all(
            """
            SELECT message.conversation_id AS cid, COUNT(*) AS unread,
                bool_or(message.mention_all OR strpos(message.mention_pids, \(RowMapping.quoted(clientID))) > 0) AS mentioned
            FROM conversation_member
            JOIN conversation ON conversation.id = conversation_member.conversation_id AND conversation.last_message_at > \(since)
            JOIN message ON message.conversation_id = conversation_member.conversation_id
            LEFT JOIN receipt_position ON receipt_position.conversation_id = conversation_member.conversation_id
                AND receipt_position.client_id = conversation_member.client_id
            WHERE conversation_member.client_id = \(clientID) AND message.sender != \(clientID)
                AND message.timestamp > COALESCE(receipt_position.read_up_to, 0)
                AND (\(conversationID)::text IS NULL OR conversation_member.conversation_id = \(conversationID))
                AND (message.audience IS NULL OR message.sender = \(clientID) OR message.audience::jsonb ? \(clientID))
            GROUP BY message.conversation_id
            """
        ).map { row in (row.string("cid") ?? "", Int(row.int64("unread") ?? 0), row.bool("mentioned") ?? false) }
        let last = try await lastMessages(conversationIDs: counts.map(\.0))
        return counts.map { UnreadSummary(conversationID: $0.0, count: $0.1, mentioned: $0.2, lastMessage: last[$0.0]) }
    }
}
