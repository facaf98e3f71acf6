import GRDB
import SwitchboardCore

extension SQLiteStore: DeliveryState {
    public func messagesToDeliver(to device: DeviceAddress, seqs: ClosedRange<Int64>, lastDeliveredBefore cutoff: Int64, now: Int64, limit: Int) async throws -> [Message] {
        try await writer.write { db in
            let rows = try Row.fetchAll(
                db,
                cachedSQL: """
                    SELECT message.* FROM device_inbox JOIN message ON message.seq = device_inbox.message_seq
                    WHERE device_inbox.client_id = ? AND device_inbox.device_key = ? AND device_inbox.message_seq BETWEEN ? AND ?
                        AND device_inbox.delivered_at < ?
                    ORDER BY device_inbox.message_seq LIMIT ?
                    """,
                arguments: [device.clientID, device.key, seqs.lowerBound, seqs.upperBound, cutoff, limit]
            )
            let seqs: [Int64] = rows.map { $0["seq"] }
            if !seqs.isEmpty {
                try db.executeCached(
                    sql: "UPDATE device_inbox SET delivered_at = ? WHERE client_id = ? AND device_key = ? AND message_seq IN \(Self.placeholders(seqs.count))",
                    arguments: [now, device.clientID, device.key] + Self.padded(seqs)
                )
            }
            return rows.map(RowMapping.message)
        }
    }

    public func trimQueue(of device: DeviceAddress, keepingPerConversation count: Int) async throws {
        try await writer.write { db in
            try db.executeCached(
                sql: """
                    DELETE FROM device_inbox WHERE client_id = ?1 AND device_key = ?2 AND message_seq IN (
                        SELECT seq FROM (
                            SELECT message.seq AS seq,
                                ROW_NUMBER() OVER (PARTITION BY message.conversation_id ORDER BY message.seq DESC) AS newness
                            FROM device_inbox JOIN message ON message.seq = device_inbox.message_seq
                            WHERE device_inbox.client_id = ?1 AND device_inbox.device_key = ?2
                        ) WHERE newness > ?3
                    )
                    """,
                arguments: [device.clientID, device.key, count]
            )
        }
    }

    public func acknowledge(_ device: DeviceAddress, messageIDs: [String]) async throws -> [AcknowledgedMessage] {
        guard !messageIDs.isEmpty else { return [] }
        return try await acknowledge(device, messagesWhere: "message.id IN \(Self.placeholders(messageIDs.count))", Self.padded(messageIDs))
    }

    public func acknowledge(_ device: DeviceAddress, conversationID: String, timestamps range: ClosedRange<Int64>) async throws -> [AcknowledgedMessage] {
        try await acknowledge(
            device, messagesWhere: "message.conversation_id = ? AND message.timestamp BETWEEN ? AND ?",
            [conversationID, range.lowerBound, range.upperBound]
        )
    }

    /// Takes the matching messages off the device's queue and moves its client's delivered
    /// position in their conversations past them.
    private func acknowledge(_ device: DeviceAddress, messagesWhere condition: String, _ arguments: StatementArguments) async throws -> [AcknowledgedMessage] {
        try await writer.write { db in
            let rows = try Row.fetchAll(
                db,
                cachedSQL: """
                    SELECT message.seq, message.id, message.conversation_id, message.sender, message.timestamp, message.wants_receipt
                    FROM device_inbox JOIN message ON message.seq = device_inbox.message_seq
                    WHERE device_inbox.client_id = ? AND device_inbox.device_key = ? AND \(condition)
                    """,
                arguments: [device.clientID, device.key] + arguments
            )
            guard !rows.isEmpty else { return [] }
            // By position: the columns are the ones selected above.
            let seqs: [Int64] = rows.map { $0[0] }
            // A time range can cover more messages than one statement takes placeholders.
            for start in stride(from: 0, to: seqs.count, by: Self.maxListLength) {
                let chunk = Array(seqs[start..<min(start + Self.maxListLength, seqs.count)])
                try db.executeCached(
                    sql: "DELETE FROM device_inbox WHERE client_id = ? AND device_key = ? AND message_seq IN \(Self.placeholders(chunk.count))",
                    arguments: [device.clientID, device.key] + Self.padded(chunk)
                )
            }
            let messages = rows.map { AcknowledgedMessage(id: $0[1], conversationID: $0[2], from: $0[3], timestamp: $0[4], wantsReceipt: $0[5]) }
            var newest: [String: Int64] = [:]
            for message in messages { newest[message.conversationID] = max(newest[message.conversationID] ?? 0, message.timestamp) }
            for (conversationID, timestamp) in newest {
                try Self.advance(clientID: device.clientID, in: conversationID, acknowledged: timestamp, read: 0, db)
            }
            return messages
        }
    }

    public func deviceSeen(_ device: DeviceAddress, at time: Int64) async throws -> Int64? {
        try await writer.write { db in
            let previous = try Int64.fetchOne(
                db, sql: "SELECT last_seen_at FROM client_device WHERE client_id = ? AND device_key = ?", arguments: [device.clientID, device.key]
            )
            let isFirstDevice = try Bool.fetchOne(
                db, sql: "SELECT NOT EXISTS (SELECT 1 FROM client_device WHERE client_id = ?)", arguments: [device.clientID]
            ) ?? false
            if isFirstDevice, !device.key.isEmpty {
                // What was queued before the client ever logged in is its first device's.
                try db.executeCached(
                    sql: "UPDATE device_inbox SET device_key = ? WHERE client_id = ? AND device_key = ''",
                    arguments: [device.key, device.clientID]
                )
            }
            try db.executeCached(
                sql: """
                    INSERT INTO client_device (client_id, device_key, last_seen_at) VALUES (?, ?, ?)
                    ON CONFLICT DO UPDATE SET last_seen_at = excluded.last_seen_at
                    """,
                arguments: [device.clientID, device.key, time]
            )
            return previous
        }
    }

    public func clientsSeen(since time: Int64) async throws -> [String] {
        try await read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT client_id FROM client_device WHERE last_seen_at >= ?", arguments: [time])
        }
    }

    public func forgetDevices(unseenSince time: Int64) async throws -> Int {
        try await writer.write { db in
            try db.executeCached(
                sql: """
                    DELETE FROM device_inbox WHERE (client_id, device_key) IN (
                        SELECT client_id, device_key FROM client_device WHERE last_seen_at < ?)
                    """,
                arguments: [time]
            )
            try db.executeCached(sql: "DELETE FROM notice WHERE created_at < ?", arguments: [time])
            try db.executeCached(sql: "DELETE FROM broadcast WHERE valid_till < ?", arguments: [time])
            try db.executeCached(sql: "DELETE FROM client_device WHERE last_seen_at < ?", arguments: [time])
            return db.changesCount
        }
    }

    public func markRead(clientID: String, conversationID: String, upTo timestamp: Int64) async throws {
        try await writer.write { db in
            try Self.advance(clientID: clientID, in: conversationID, acknowledged: timestamp, read: timestamp, db)
        }
    }

    private static func advance(clientID: String, in conversationID: String, acknowledged: Int64, read: Int64, _ db: Database) throws {
        try db.executeCached(
            sql: """
                INSERT INTO receipt_position (conversation_id, client_id, acknowledged_up_to, read_up_to) VALUES (?, ?, ?, ?)
                ON CONFLICT DO UPDATE SET
                    acknowledged_up_to = max(acknowledged_up_to, excluded.acknowledged_up_to),
                    read_up_to = max(read_up_to, excluded.read_up_to)
                """,
            arguments: [conversationID, clientID, acknowledged, read]
        )
    }

    public func receiptPositions(conversationID: String) async throws -> [ReceiptPosition] {
        try await read { db in
            try Row.fetchAll(db, cachedSQL: "SELECT * FROM receipt_position WHERE conversation_id = ?", arguments: [conversationID]).map { row in
                ReceiptPosition(clientID: row["client_id"], acknowledgedUpTo: row["acknowledged_up_to"], readUpTo: row["read_up_to"])
            }
        }
    }

    public func unreadSummaries(for clientID: String, since: Int64, conversationID: String?) async throws -> [UnreadSummary] {
        let counts = try await read { db in
            try Row.fetchAll(
                db,
                cachedSQL: """
                    SELECT message.conversation_id AS cid, COUNT(*) AS unread,
                        MAX(message.mention_all OR instr(message.mention_pids, ?) > 0) AS mentioned
                    FROM conversation_member
                    JOIN conversation ON conversation.id = conversation_member.conversation_id AND conversation.last_message_at > ?
                    JOIN message ON message.conversation_id = conversation_member.conversation_id
                    LEFT JOIN receipt_position ON receipt_position.conversation_id = conversation_member.conversation_id
                        AND receipt_position.client_id = conversation_member.client_id
                    WHERE conversation_member.client_id = ? AND message.sender != ?
                        AND message.timestamp > COALESCE(receipt_position.read_up_to, 0)
                        AND (? IS NULL OR conversation_member.conversation_id = ?) AND \(Self.visibleToClient)
                    GROUP BY message.conversation_id
                    """,
                arguments: [RowMapping.quoted(clientID), since, clientID, clientID, conversationID, conversationID, clientID, clientID]
            ).map { row -> (String, Int, Bool) in (row["cid"], row["unread"], row["mentioned"]) }
        }
        let last = try await lastMessages(conversationIDs: counts.map { $0.0 })
        return counts.map { UnreadSummary(conversationID: $0.0, count: $0.1, mentioned: $0.2, lastMessage: last[$0.0]) }
    }
}
