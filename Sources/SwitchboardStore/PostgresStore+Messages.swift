import Foundation
import PostgresNIO
import SwitchboardCore

extension PostgresStore: MessageLog {
    public func append(_ message: Message, queueFor queueing: Queueing, placed: @escaping @Sendable () -> Void) async throws -> Message {
        let (text, bytes) = RowMapping.columns(message.content)
        return try await transaction { connection in
            // First, so that the conversation's row is locked before the message takes its
            // `seq`: one conversation's messages then commit in `seq` order, which a device's
            // position in it relies on (see `MessageLog`). A copy sent again moves the time too,
            // harmlessly: the conversation was active then.
            try await connection.query(
                """
                UPDATE conversation SET last_message_at = GREATEST(COALESCE(last_message_at, 0), \(message.timestamp))
                WHERE id = \(message.conversationID)
                """,
                logger: logger
            )
            // The row stays locked until this commits: the conversation's next message waits.
            placed()
            let inserted = try await connection.all(
                """
                INSERT INTO message (id, conversation_id, sender, text, bytes, lctype, timestamp, mention_all, mention_pids,
                    patch_timestamp, wants_receipt, client_token, audience, to_every_member)
                VALUES (\(message.id), \(message.conversationID), \(message.from), \(text), \(bytes.map { ByteBuffer(bytes: $0) }),
                    \(message.content.typedMessageType), \(message.timestamp), \(message.mentionAll), \(RowMapping.json(message.mentionPids)),
                    \(message.patchTimestamp), \(message.wantsReceipt), \(message.clientToken), \(message.audience.map(RowMapping.json)),
                    \(queueing == .everyMember))
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
            switch queueing {
            case .nobody:
                break
            case .everyMember:
                // Devices find it from their positions. A copy is queued only for a member that
                // never logged in (for its first device), and for a device that first logged in
                // after the message took its `seq` (its position starts past the message, which
                // committed after the login read the newest `seq`).
                try await connection.query(
                    """
                    INSERT INTO device_inbox (client_id, device_key, message_seq, delivered_at)
                    SELECT member.client_id, COALESCE(device.device_key, ''), \(seq), \(message.timestamp) FROM conversation_member AS member
                    LEFT JOIN client_device AS device ON device.client_id = member.client_id
                    WHERE member.conversation_id = \(message.conversationID) AND member.client_id <> \(message.from)
                        AND (device.client_id IS NULL OR device.since_seq >= \(seq))
                    ON CONFLICT DO NOTHING
                    """,
                    logger: logger
                )
            case .only(let recipients):
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
            }
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

    public func keepBroadcast(messageID: String, validTill: Int64) async throws {
        try await run("INSERT INTO broadcast (message_id, valid_till) VALUES (\(messageID), \(validTill))")
    }

    public func broadcasts(in conversationID: String?, sentAfter: Int64, validAt now: Int64, skip: Int, limit: Int) async throws -> [Message] {
        try await all(
            """
            SELECT message.* FROM broadcast JOIN message ON message.id = broadcast.message_id
            WHERE broadcast.valid_till > \(now) AND message.timestamp > \(sentAfter)
                AND (\(conversationID)::text IS NULL OR message.conversation_id = \(conversationID))
            ORDER BY message.timestamp LIMIT \(limit) OFFSET \(skip)
            """
        ).map(RowMapping.message)
    }

    public func deleteBroadcast(messageID: String) async throws -> Bool {
        try await !all("DELETE FROM broadcast WHERE message_id = \(messageID) RETURNING message_id").isEmpty
    }
}
