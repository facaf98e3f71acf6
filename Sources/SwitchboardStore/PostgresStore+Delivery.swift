import Foundation
import PostgresNIO
import SwitchboardCore

extension PostgresStore: DeliveryState {
    /// Joins a membership (`member`) and one of its client's devices (`device`) to the
    /// device's position in that conversation.
    private static let positionJoin = """
        LEFT JOIN device_position AS position ON position.client_id = member.client_id AND position.device_key = device.device_key
            AND position.conversation_id = member.conversation_id
        """

    /// The last message of the conversation the device has not still to receive: its position,
    /// or where its client joined or it first logged in, whichever is later.
    private static let acknowledgedThrough = "GREATEST(member.joined_seq, device.since_seq, COALESCE(position.acknowledged_seq, 0))"

    /// Appends the messages to every member that `device` has still to receive, with a `seq`
    /// within `seqs`: those of its client's conversations after its position there, stored
    /// after the client joined and after the device's first login.
    private static func appendPendingForMembers(_ device: DeviceAddress, _ seqs: ClosedRange<Int64>, to sql: inout PostgresQuery.StringInterpolation) {
        sql.appendLiteral("""
            SELECT message.* FROM conversation_member AS member
            JOIN client_device AS device ON device.client_id = member.client_id AND device.device_key = 
            """)
        sql.appendInterpolation(device.key)
        sql.appendLiteral("""

            \(positionJoin)
            JOIN message ON message.conversation_id = member.conversation_id AND message.to_every_member
                AND message.seq > \(acknowledgedThrough)
            WHERE member.client_id = 
            """)
        sql.appendInterpolation(device.clientID)
        sql.appendLiteral(" AND message.sender <> member.client_id")
        appendSeqs(seqs, to: &sql)
    }

    /// Appends the copies queued for `device` with a `seq` within `seqs`.
    private static func appendPendingQueued(_ device: DeviceAddress, _ seqs: ClosedRange<Int64>, to sql: inout PostgresQuery.StringInterpolation) {
        sql.appendLiteral("SELECT message.* FROM device_inbox JOIN message ON message.seq = device_inbox.message_seq WHERE device_inbox.client_id = ")
        sql.appendInterpolation(device.clientID)
        sql.appendLiteral(" AND device_inbox.device_key = ")
        sql.appendInterpolation(device.key)
        appendSeqs(seqs, to: &sql)
    }

    private static func appendSeqs(_ seqs: ClosedRange<Int64>, to sql: inout PostgresQuery.StringInterpolation) {
        sql.appendLiteral(" AND message.seq BETWEEN ")
        sql.appendInterpolation(seqs.lowerBound)
        sql.appendLiteral(" AND ")
        sql.appendInterpolation(seqs.upperBound)
    }

    public func pendingMessages(for device: DeviceAddress, seqs: ClosedRange<Int64>, limit: Int) async throws -> [Message] {
        var sql = PostgresQuery.StringInterpolation(literalCapacity: 1024, interpolationCount: 9)
        Self.appendPendingForMembers(device, seqs, to: &sql)
        // UNION, not UNION ALL: a first login racing a message's queueing can leave the device
        // both a position before the message and its queued copy.
        sql.appendLiteral(" UNION ")
        Self.appendPendingQueued(device, seqs, to: &sql)
        sql.appendLiteral(" ORDER BY seq LIMIT ")
        sql.appendInterpolation(limit)
        let pending = PostgresQuery(stringInterpolation: sql)
        return try await transaction { connection in
            // After an acknowledgement of the device being committed, not beside it.
            try await Self.lock(device, connection, logger)
            return try await connection.all(pending, logger).map(RowMapping.message)
        }
    }

    /// Orders what moves a device's positions and what reads them, as SQLite's one writer
    /// does: an acknowledgement and a read of what the device has still to receive wait for
    /// each other, so a read never answers an acknowledgement handled before it by sending
    /// the message again.
    private static func lock(_ device: DeviceAddress, _ connection: PostgresConnection, _ logger: Logger) async throws {
        try await connection.query(
            "SELECT 1 FROM client_device WHERE client_id = \(device.clientID) AND device_key = \(device.key) FOR UPDATE", logger: logger
        )
    }

    public func trimQueue(of device: DeviceAddress, keepingPerConversation count: Int) async throws {
        try await transaction { connection in
            // Ranked once, both kinds together: each change below would shift the other's ranks.
            var sql = PostgresQuery.StringInterpolation(literalCapacity: 1024, interpolationCount: 9)
            sql.appendLiteral("""
                SELECT conversation_id, seq, queued FROM (
                    SELECT conversation_id, seq, queued, ROW_NUMBER() OVER (PARTITION BY conversation_id ORDER BY seq DESC) AS newness
                    FROM (SELECT conversation_id, seq, FALSE AS queued FROM (
                """)
            Self.appendPendingForMembers(device, 1...Int64.max, to: &sql)
            sql.appendLiteral(") AS for_members UNION ALL SELECT conversation_id, seq, TRUE AS queued FROM (")
            Self.appendPendingQueued(device, 1...Int64.max, to: &sql)
            sql.appendLiteral(") AS queued) AS pending) AS ranked WHERE newness > ")
            sql.appendInterpolation(count)
            let older = try await connection.all(PostgresQuery(stringInterpolation: sql), logger)
            var positions: [String: Int64] = [:]
            var queued: [Int64] = []
            for row in older {
                guard let conversationID = row.string("conversation_id"), let seq = row.int64("seq") else { continue }
                if row.bool("queued") == true { queued.append(seq) } else { positions[conversationID] = max(positions[conversationID] ?? 0, seq) }
            }
            for (conversationID, seq) in positions {
                try await Self.move(device, in: conversationID, to: seq, connection, logger)
            }
            try await connection.query(
                "DELETE FROM device_inbox WHERE client_id = \(device.clientID) AND device_key = \(device.key) AND message_seq = ANY(\(queued))",
                logger: logger
            )
        }
    }

    public func acknowledge(_ device: DeviceAddress, messageIDs: [String]) async throws -> [AcknowledgedMessage] {
        guard !messageIDs.isEmpty else { return [] }
        return try await acknowledge(device) { sql in
            sql.appendLiteral("message.id = ANY(")
            sql.appendInterpolation(messageIDs)
            sql.appendLiteral(")")
        }
    }

    public func acknowledge(_ device: DeviceAddress, conversationID: String, timestamps range: ClosedRange<Int64>) async throws -> [AcknowledgedMessage] {
        try await acknowledge(device) { sql in
            sql.appendLiteral("message.conversation_id = ")
            sql.appendInterpolation(conversationID)
            sql.appendLiteral(" AND message.timestamp BETWEEN ")
            sql.appendInterpolation(range.lowerBound)
            sql.appendLiteral(" AND ")
            sql.appendInterpolation(range.upperBound)
        }
    }

    /// Moves the device's positions past the messages to every member that `condition`
    /// matches, takes the matching copies off its queue, and moves its client's delivered
    /// position in their conversations past them.
    private func acknowledge(
        _ device: DeviceAddress, matching condition: (inout PostgresQuery.StringInterpolation) -> Void
    ) async throws -> [AcknowledgedMessage] {
        var newestQuery = PostgresQuery.StringInterpolation(literalCapacity: 256, interpolationCount: 3)
        newestQuery.appendLiteral("SELECT conversation_id, MAX(seq) AS seq FROM message WHERE message.to_every_member AND ")
        condition(&newestQuery)
        newestQuery.appendLiteral(" GROUP BY conversation_id")
        var queuedQuery = PostgresQuery.StringInterpolation(literalCapacity: 256, interpolationCount: 5)
        queuedQuery.appendLiteral("DELETE FROM device_inbox USING message WHERE device_inbox.message_seq = message.seq AND device_inbox.client_id = ")
        queuedQuery.appendInterpolation(device.clientID)
        queuedQuery.appendLiteral(" AND device_inbox.device_key = ")
        queuedQuery.appendInterpolation(device.key)
        queuedQuery.appendLiteral(" AND ")
        condition(&queuedQuery)
        queuedQuery.appendLiteral(" RETURNING \(Self.acknowledgedColumns)")
        let (newest, queued) = (PostgresQuery(stringInterpolation: newestQuery), PostgresQuery(stringInterpolation: queuedQuery))
        return try await transaction { connection in
            try await Self.lock(device, connection, logger)
            var acknowledged: [AcknowledgedMessage] = []
            for row in try await connection.all(newest, logger) {
                guard let conversationID = row.string("conversation_id"), let seq = row.int64("seq") else { continue }
                acknowledged += try await Self.advance(device, in: conversationID, through: seq, connection, logger)
            }
            acknowledged += try await connection.all(queued, logger).map(Self.acknowledgedMessage)
            var newestTimes: [String: Int64] = [:]
            for message in acknowledged { newestTimes[message.conversationID] = max(newestTimes[message.conversationID] ?? 0, message.timestamp) }
            for (conversationID, timestamp) in newestTimes {
                try await Self.advance(clientID: device.clientID, in: conversationID, acknowledged: timestamp, read: 0, connection, logger)
            }
            return acknowledged
        }
    }

    static let acknowledgedColumns = "message.seq, message.id, message.conversation_id, message.sender, message.timestamp, message.wants_receipt"

    static func acknowledgedMessage(_ row: PostgresRandomAccessRow) -> AcknowledgedMessage {
        AcknowledgedMessage(
            seq: row.int64("seq") ?? 0, id: row.string("id") ?? "", conversationID: row.string("conversation_id") ?? "",
            from: row.string("sender") ?? "", timestamp: row.int64("timestamp") ?? 0, wantsReceipt: row.bool("wants_receipt") ?? false
        )
    }

    /// Moves the device's position in a conversation up to `seq`; returns the messages it had
    /// still to receive up to there (none if its client is not a member or it was already past).
    private static func advance(
        _ device: DeviceAddress, in conversationID: String, through seq: Int64, _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> [AcknowledgedMessage] {
        let passed = try await connection.all(
            """
            SELECT \(unescaped: acknowledgedColumns) FROM message
            WHERE message.conversation_id = \(conversationID) AND message.to_every_member AND message.seq <= \(seq)
                AND message.sender <> \(device.clientID) AND message.seq > (
                    SELECT \(unescaped: acknowledgedThrough) FROM conversation_member AS member
                    JOIN client_device AS device ON device.client_id = member.client_id AND device.device_key = \(device.key)
                    \(unescaped: positionJoin)
                    WHERE member.conversation_id = \(conversationID) AND member.client_id = \(device.clientID))
            """,
            logger
        ).map(acknowledgedMessage)
        // Only the client's own messages, or none, were passed: there is nothing to move past.
        if !passed.isEmpty { try await move(device, in: conversationID, to: seq, connection, logger) }
        return passed
    }

    private static func move(_ device: DeviceAddress, in conversationID: String, to seq: Int64, _ connection: PostgresConnection, _ logger: Logger) async throws {
        try await connection.query(
            """
            INSERT INTO device_position (client_id, device_key, conversation_id, acknowledged_seq)
            VALUES (\(device.clientID), \(device.key), \(conversationID), \(seq))
            ON CONFLICT (client_id, device_key, conversation_id) DO UPDATE SET
                acknowledged_seq = GREATEST(device_position.acknowledged_seq, excluded.acknowledged_seq)
            """,
            logger: logger
        )
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
            // A new device receives what is stored from now on.
            try await connection.query(
                """
                INSERT INTO client_device (client_id, device_key, last_seen_at, since_seq)
                VALUES (\(device.clientID), \(device.key), \(time), (SELECT COALESCE(MAX(seq), 0) FROM message))
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
            for table in ["device_inbox", "device_position"] {
                try await connection.query(
                    """
                    DELETE FROM \(unescaped: table) WHERE (client_id, device_key) IN (
                        SELECT client_id, device_key FROM client_device WHERE last_seen_at < \(time))
                    """,
                    logger: logger
                )
            }
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
