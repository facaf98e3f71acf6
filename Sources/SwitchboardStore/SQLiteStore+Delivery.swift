import GRDB
import SwitchboardCore

extension SQLiteStore: DeliveryState {
    /// Joins a membership (`member`) and one of its client's devices (`device`) to the
    /// device's position in that conversation.
    private static let positionJoin = """
        LEFT JOIN device_position AS position ON position.client_id = member.client_id AND position.device_key = device.device_key
            AND position.conversation_id = member.conversation_id
        """

    /// The last message of the conversation the device has not still to receive: its position,
    /// or where its client joined or it first logged in, whichever is later.
    private static let acknowledgedThrough = "max(member.joined_seq, device.since_seq, COALESCE(position.acknowledged_seq, 0))"

    /// The earliest timestamp a message after `acknowledgedThrough` may have: each of the three
    /// positions' floors holds for the messages after it, so the largest holds for those after
    /// all three, less how far a message may fall below those stored before it (migration v22).
    private static let timestampFloor = """
        max(member.joined_floor, device.since_floor, COALESCE(position.acknowledged_floor, 0)) - (SELECT inversion FROM delivery_clock)
        """

    /// The messages to every member that a device (?1: client, ?2: device key) has still to
    /// receive, with a `seq` within ?3...?4: those of its client's conversations after its
    /// position there, stored after the client joined and after the device's first login.
    /// Each membership costs one seek in the index by conversation and time, from the floor.
    private static let pendingForMembers = """
        SELECT message.* FROM conversation_member AS member
        JOIN client_device AS device ON device.client_id = member.client_id AND device.device_key = ?2
        \(positionJoin)
        JOIN message ON message.conversation_id = member.conversation_id AND message.timestamp >= \(timestampFloor)
            AND message.to_every_member AND message.seq > \(acknowledgedThrough)
        WHERE member.client_id = ?1 AND message.sender != ?1 AND +message.seq BETWEEN ?3 AND ?4
        """

    /// The copies queued for the device (?1, ?2) with a `seq` within ?3...?4.
    private static let pendingQueued = """
        SELECT message.* FROM device_inbox JOIN message ON message.seq = device_inbox.message_seq
        WHERE device_inbox.client_id = ?1 AND device_inbox.device_key = ?2 AND device_inbox.message_seq BETWEEN ?3 AND ?4
        """

    public func pendingMessages(for device: DeviceAddress, seqs: ClosedRange<Int64>, limit: Int) async throws -> [Message] {
        // Through the writer: after every write submitted before it, acknowledgements among them.
        try await writer.write { db in
            try Row.fetchAll(
                db,
                cachedSQL: "\(Self.pendingForMembers) UNION ALL \(Self.pendingQueued) ORDER BY seq LIMIT ?5",
                arguments: [device.clientID, device.key, seqs.lowerBound, seqs.upperBound, limit]
            ).map(RowMapping.message)
        }
    }

    public func trimQueue(of device: DeviceAddress, keepingPerConversation count: Int) async throws {
        try await writer.write { db in
            // Ranked once, both kinds together: each change below would shift the other's ranks.
            let older = try Row.fetchAll(
                db,
                cachedSQL: """
                    SELECT conversation_id, seq, timestamp, queued FROM (
                        SELECT conversation_id, seq, timestamp, queued,
                            ROW_NUMBER() OVER (PARTITION BY conversation_id ORDER BY seq DESC) AS newness
                        FROM (
                            SELECT conversation_id, seq, timestamp, 0 AS queued FROM (\(Self.pendingForMembers))
                            UNION ALL SELECT conversation_id, seq, timestamp, 1 AS queued FROM (\(Self.pendingQueued))
                        )
                    ) WHERE newness > ?5
                    """,
                arguments: [device.clientID, device.key, 1, Int64.max, count]
            )
            var positions: [String: (seq: Int64, timestamp: Int64)] = [:]
            var queued: [Int64] = []
            for row in older {
                let (conversationID, seq, timestamp): (String, Int64, Int64) = (row["conversation_id"], row["seq"], row["timestamp"])
                if row["queued"] {
                    queued.append(seq)
                } else if seq > positions[conversationID]?.seq ?? 0 {
                    positions[conversationID] = (seq, timestamp)
                }
            }
            for (conversationID, position) in positions {
                try Self.move(device, in: conversationID, to: position.seq, stampedAt: position.timestamp, db)
            }
            try Self.unqueue(queued, for: device, db)
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

    /// Moves the device's positions past the matching messages to every member, takes the
    /// matching copies off its queue, and moves its client's delivered position in their
    /// conversations past them.
    private func acknowledge(_ device: DeviceAddress, messagesWhere condition: String, _ arguments: StatementArguments) async throws -> [AcknowledgedMessage] {
        try await writer.write { db in
            var acknowledged: [AcknowledgedMessage] = []
            // With MAX, SQLite takes the other columns from the row that has it.
            let newest = try Row.fetchAll(
                db,
                cachedSQL: """
                    SELECT conversation_id, MAX(seq) AS seq, timestamp FROM message WHERE message.to_every_member AND \(condition)
                    GROUP BY conversation_id
                    """,
                arguments: arguments
            )
            for row in newest {
                acknowledged += try Self.advance(device, in: row["conversation_id"], through: row["seq"], stampedAt: row["timestamp"], db)
            }
            let queued = try Row.fetchAll(
                db,
                cachedSQL: """
                    SELECT \(Self.acknowledgedColumns) FROM device_inbox JOIN message ON message.seq = device_inbox.message_seq
                    WHERE device_inbox.client_id = ? AND device_inbox.device_key = ? AND \(condition)
                    """,
                arguments: [device.clientID, device.key] + arguments
            ).map(Self.acknowledgedMessage)
            try Self.unqueue(queued.map(\.seq), for: device, db)
            acknowledged += queued
            var newestTimes: [String: Int64] = [:]
            for message in acknowledged { newestTimes[message.conversationID] = max(newestTimes[message.conversationID] ?? 0, message.timestamp) }
            for (conversationID, timestamp) in newestTimes {
                try Self.advance(clientID: device.clientID, in: conversationID, acknowledged: timestamp, read: 0, db)
            }
            return acknowledged
        }
    }

    private static let acknowledgedColumns = "message.seq, message.id, message.conversation_id, message.sender, message.timestamp, message.wants_receipt"

    /// By position: the columns are `acknowledgedColumns`.
    static func acknowledgedMessage(_ row: Row) -> AcknowledgedMessage {
        AcknowledgedMessage(seq: row[0], id: row[1], conversationID: row[2], from: row[3], timestamp: row[4], wantsReceipt: row[5])
    }

    /// Moves the device's position in a conversation up to `seq` (a message to every member
    /// stamped at `timestamp`); returns the messages it had still to receive up to there (none
    /// if its client is not a member or it was already past).
    private static func advance(
        _ device: DeviceAddress, in conversationID: String, through seq: Int64, stampedAt timestamp: Int64, _ db: Database
    ) throws -> [AcknowledgedMessage] {
        let passed = try Row.fetchAll(
            db,
            cachedSQL: """
                WITH mark AS (
                    SELECT \(acknowledgedThrough) AS seq, \(timestampFloor) AS floor FROM conversation_member AS member
                    JOIN client_device AS device ON device.client_id = member.client_id AND device.device_key = ?4
                    \(positionJoin)
                    WHERE member.conversation_id = ?1 AND member.client_id = ?3)
                SELECT \(acknowledgedColumns) FROM mark JOIN message ON message.conversation_id = ?1 AND message.timestamp >= mark.floor
                    AND message.to_every_member AND +message.seq <= ?2 AND message.sender != ?3 AND message.seq > mark.seq
                ORDER BY message.seq
                """,
            arguments: [conversationID, seq, device.clientID, device.key]
        ).map(acknowledgedMessage)
        // Only the client's own messages, or none, were passed: there is nothing to move past.
        if !passed.isEmpty { try move(device, in: conversationID, to: seq, stampedAt: timestamp, db) }
        return passed
    }

    /// A message to every member is its own position's floor: those stored after it have a
    /// timestamp of at least its own less the inversion.
    private static func move(_ device: DeviceAddress, in conversationID: String, to seq: Int64, stampedAt timestamp: Int64, _ db: Database) throws {
        try db.executeCached(
            sql: """
                INSERT INTO device_position (client_id, device_key, conversation_id, acknowledged_seq, acknowledged_floor) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT DO UPDATE SET acknowledged_seq = max(acknowledged_seq, excluded.acknowledged_seq),
                    acknowledged_floor = max(acknowledged_floor, excluded.acknowledged_floor)
                """,
            arguments: [device.clientID, device.key, conversationID, seq, timestamp]
        )
    }

    private static func unqueue(_ seqs: [Int64], for device: DeviceAddress, _ db: Database) throws {
        // A time range can cover more messages than one statement takes placeholders.
        for chunk in listChunks(seqs) {
            try db.executeCached(
                sql: "DELETE FROM device_inbox WHERE client_id = ? AND device_key = ? AND message_seq IN \(placeholders(chunk.count))",
                arguments: [device.clientID, device.key] + padded(chunk)
            )
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
            // A new device receives what is stored from now on.
            try db.executeCached(
                sql: """
                    INSERT INTO client_device (client_id, device_key, last_seen_at, since_seq, since_floor)
                    VALUES (?, ?, ?, (SELECT COALESCE(MAX(seq), 0) FROM message), (SELECT newest FROM delivery_clock))
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
            for table in ["device_inbox", "device_position"] {
                try db.executeCached(
                    sql: """
                        DELETE FROM \(table) WHERE (client_id, device_key) IN (
                            SELECT client_id, device_key FROM client_device WHERE last_seen_at < ?)
                        """,
                    arguments: [time]
                )
            }
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

    static func advance(clientID: String, in conversationID: String, acknowledged: Int64, read: Int64, _ db: Database) throws {
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
