import Foundation
import PostgresNIO
import SwitchboardCore

extension PostgresStore {
    public func append(_ message: Message, queueFor recipients: [String]) async throws -> Message {
        let (text, bytes) = RowMapping.columns(message.content)
        return try await transaction { connection in
            let inserted = try await connection.all(
                """
                INSERT INTO message (id, conversation_id, sender, text, bytes, lctype, timestamp, mention_all, mention_pids,
                    patch_timestamp, wants_receipt, client_token, audience)
                VALUES (\(message.id), \(message.conversationID), \(message.from), \(text), \(bytes.map { ByteBuffer(bytes: $0) }),
                    \(message.content.typedMessageType), \(message.timestamp), \(message.mentionAll), \(RowMapping.json(message.mentionPids)),
                    \(message.patchTimestamp), \(message.wantsReceipt), \(message.clientToken), \(message.audience.map(RowMapping.json)))
                ON CONFLICT DO NOTHING RETURNING seq
                """,
                logger
            )
            guard let seq = inserted.first?.int64("seq") else {
                // Only the client token can collide: message ids never repeat.
                let stored = try await connection.all(
                    """
                    SELECT * FROM message WHERE conversation_id = \(message.conversationID) AND sender = \(message.from)
                        AND client_token = \(message.clientToken)
                    """,
                    logger
                )
                return stored.first.map(RowMapping.message) ?? message
            }
            // A copy for each device the recipient has logged in from; a recipient that
            // never logged in gets one for its default device.
            try await connection.query(
                """
                INSERT INTO device_inbox (client_id, device_key, message_seq, delivered_at)
                SELECT recipient, COALESCE(client_device.device_key, ''), \(seq), \(message.timestamp)
                FROM unnest(\(Array(Set(recipients)))::text[]) AS recipient
                LEFT JOIN client_device ON client_device.client_id = recipient
                ON CONFLICT DO NOTHING
                """,
                logger: logger
            )
            try await connection.query(
                "UPDATE conversation SET last_message_at = \(message.timestamp) WHERE id = \(message.conversationID)", logger: logger
            )
            var stored = message
            stored.seq = seq
            return stored
        }
    }

    public func message(id: String) async throws -> Message? {
        try await all("SELECT * FROM message WHERE id = \(id)").first.map(RowMapping.message)
    }

    public func deleteMessage(id: String) async throws {
        try await run("DELETE FROM message WHERE id = \(id)")
    }

    public func updateMessage(_ message: Message) async throws {
        let (text, bytes) = RowMapping.columns(message.content)
        try await run(
            """
            UPDATE message SET text = \(text), bytes = \(bytes.map { ByteBuffer(bytes: $0) }), lctype = \(message.content.typedMessageType),
                mention_all = \(message.mentionAll), mention_pids = \(RowMapping.json(message.mentionPids)),
                patch_timestamp = \(message.patchTimestamp), audience = \(message.audience.map(RowMapping.json))
            WHERE id = \(message.id)
            """
        )
    }

    public func patchedMessages(visibleTo clientID: String, since: Int64, limit: Int) async throws -> [Message] {
        try await all(
            """
            SELECT message.* FROM message
            JOIN conversation_member ON conversation_member.conversation_id = message.conversation_id
            WHERE conversation_member.client_id = \(clientID) AND message.patch_timestamp > \(since)
                AND (message.audience IS NULL OR message.sender = \(clientID) OR message.audience::jsonb ? \(clientID))
            ORDER BY message.patch_timestamp LIMIT \(limit)
            """
        ).map(RowMapping.message)
    }

    public func history(_ query: HistoryQuery) async throws -> [Message] {
        var sql = PostgresQuery.StringInterpolation(literalCapacity: 256, interpolationCount: 8)
        sql.appendLiteral("SELECT * FROM message WHERE ")
        switch query.scope {
        case .conversation(let id):
            sql.appendLiteral("conversation_id = ")
            sql.appendInterpolation(id)
        case .sender(let clientID):
            sql.appendLiteral("sender = ")
            sql.appendInterpolation(clientID)
        case .app:
            sql.appendLiteral("true")
        }
        if let reader = query.reader {
            sql.appendLiteral(" AND (message.audience IS NULL OR message.sender = ")
            sql.appendInterpolation(reader)
            sql.appendLiteral(" OR message.audience::jsonb ? ")
            sql.appendInterpolation(reader)
            sql.appendLiteral(")")
        }
        if let type = query.messageType {
            sql.appendLiteral(" AND lctype = ")
            sql.appendInterpolation(type)
        }
        let older = query.direction == .older
        for (bound, isStart) in [(query.start, true), (query.end, false)] {
            guard let bound else { continue }
            let before = isStart == older ? "<" : ">"
            let comparison = before + (bound.included ? "=" : "")
            guard let messageID = bound.messageID else {
                sql.appendLiteral(" AND timestamp \(comparison) ")
                sql.appendInterpolation(bound.timestamp)
                continue
            }
            // Two nodes may give messages the same timestamp: the bound's message id says
            // where among them it lies (see `HistoryQuery.Bound.seqWithoutTheMessage`). The
            // plain range first, which the index seeks to.
            sql.appendLiteral(" AND timestamp \(before)= ")
            sql.appendInterpolation(bound.timestamp)
            sql.appendLiteral(" AND (timestamp \(before) ")
            sql.appendInterpolation(bound.timestamp)
            sql.appendLiteral(" OR seq \(comparison) COALESCE((SELECT seq FROM message WHERE id = ")
            sql.appendInterpolation(messageID)
            sql.appendLiteral(" AND timestamp = ")
            sql.appendInterpolation(bound.timestamp)
            sql.appendLiteral("), ")
            sql.appendInterpolation(bound.seqWithoutTheMessage(comparison: before))
            sql.appendLiteral("))")
        }
        let order = older ? "DESC" : "ASC"
        sql.appendLiteral(" ORDER BY timestamp \(order), seq \(order) LIMIT ")
        sql.appendInterpolation(query.limit)
        let page = try await all(PostgresQuery(stringInterpolation: sql)).map(RowMapping.message)
        // SDKs expect every page oldest first, whichever way it was read.
        return older ? page.reversed() : page
    }

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

    public func lastMessages(conversationIDs: [String]) async throws -> [String: Message] {
        guard !conversationIDs.isEmpty else { return [:] }
        let messages = try await all(
            """
            SELECT DISTINCT ON (conversation_id) * FROM message
            WHERE conversation_id = ANY(\(conversationIDs)) AND audience IS NULL
            ORDER BY conversation_id, timestamp DESC, seq
            """
        ).map(RowMapping.message)
        return Dictionary(messages.map { ($0.conversationID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public func latestMessageTimestamp() async throws -> Int64? {
        try await all("SELECT MAX(timestamp) AS newest FROM message").first?.int64("newest")
    }

    public func latestMessageSeq() async throws -> Int64 {
        try await all("SELECT COALESCE(MAX(seq), 0) AS newest FROM message").first?.int64("newest") ?? 0
    }
}
