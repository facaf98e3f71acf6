import GRDB
import SwitchboardCore

extension SQLiteStore: MessageLog {
    public func append(_ message: Message, queueFor queueing: Queueing, placed: @escaping @Sendable () -> Void) async throws -> Message {
        do {
            let stored = try await insert(message, queueFor: queueing, placed: placed)
            // A copy sent again keeps the first one's time, which is what the row has.
            cache.messageStored(in: message.conversationID, at: stored.timestamp)
            return stored
        } catch {
            // It may have failed after its commit.
            cache.invalidate([message.conversationID])
            throw error
        }
    }

    private func insert(_ message: Message, queueFor queueing: Queueing, placed: @Sendable () -> Void) async throws -> Message {
        try await writer.write(queued: placed) { db in
            if let token = message.clientToken, let first = try self.storedCopy(of: message, token: token, db) {
                return first
            }
            let (text, bytes) = RowMapping.columns(message.content)
            try db.executeCached(
                sql: """
                    INSERT INTO message (id, conversation_id, sender, text, bytes, lctype, timestamp, mention_all, mention_pids,
                        patch_timestamp, wants_receipt, client_token, audience, to_every_member)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    message.id, message.conversationID, message.from, text, bytes, message.content.typedMessageType,
                    message.timestamp, message.mentionAll, RowMapping.json(message.mentionPids), message.patchTimestamp,
                    message.wantsReceipt, message.clientToken, message.audience.map(RowMapping.json), queueing == .everyMember,
                ]
            )
            let seq = db.lastInsertedRowID
            if let token = message.clientToken {
                self.clientTokens.record(in: message.conversationID, sender: message.from, token: token, seq: seq, timestamp: message.timestamp)
            }
            switch queueing {
            case .nobody:
                break
            case .everyMember:
                // Positions find it through its timestamp (see migration v22): stamped below the
                // newest of those stored before it, it widens the inversion to cover it.
                try db.executeCached(
                    sql: "UPDATE delivery_clock SET inversion = max(inversion, newest - ?1), newest = max(newest, ?1)",
                    arguments: [message.timestamp]
                )
                // Devices find it from their positions. A copy is queued only for a member that
                // never logged in (for its first device), and for a device that first logged in
                // after the message took its `seq` (where commits are concurrent: its position
                // starts past the message).
                try db.executeCached(
                    sql: """
                        INSERT OR IGNORE INTO device_inbox (client_id, device_key, message_seq, delivered_at)
                        SELECT member.client_id, COALESCE(device.device_key, ''), ?1, ?2 FROM conversation_member AS member
                        LEFT JOIN client_device AS device ON device.client_id = member.client_id
                        WHERE member.conversation_id = ?3 AND member.client_id != ?4 AND (device.client_id IS NULL OR device.since_seq >= ?1)
                        """,
                    arguments: [seq, message.timestamp, message.conversationID, message.from]
                )
            case .only(let recipients):
                for recipient in Set(recipients) {
                    // A copy for each device the recipient has logged in from; a recipient that
                    // never logged in gets one for its default device.
                    try db.executeCached(
                        sql: """
                            INSERT OR IGNORE INTO device_inbox (client_id, device_key, message_seq, delivered_at)
                            SELECT ?1, device_key, ?2, ?3 FROM client_device WHERE client_id = ?1
                            UNION ALL SELECT ?1, '', ?2, ?3 WHERE NOT EXISTS (SELECT 1 FROM client_device WHERE client_id = ?1)
                            """,
                        arguments: [recipient, seq, message.timestamp]
                    )
                }
            }
            try db.executeCached(
                sql: "UPDATE conversation SET last_message_at = ? WHERE id = ?",
                arguments: [message.timestamp, message.conversationID]
            )
            var stored = message
            stored.seq = seq
            return stored
        }
    }

    /// The first copy of a message sent again with the same `dt` (see `RecentClientTokens`).
    private func storedCopy(of message: Message, token: String, _ db: Database) throws -> Message? {
        let conversationID = message.conversationID
        if !clientTokens.isHeld(conversationID) {
            let rows = try Row.fetchAll(
                db,
                cachedSQL: """
                    SELECT sender, client_token, seq, timestamp FROM message
                    WHERE conversation_id = ? AND timestamp >= ? AND client_token IS NOT NULL
                    ORDER BY timestamp DESC, seq DESC LIMIT ?
                    """,
                arguments: [conversationID, message.timestamp - clientTokens.duration, clientTokens.perConversation]
            )
            clientTokens.fill(conversationID, with: rows.reversed().map { ($0["sender"], $0["client_token"], $0["seq"], $0["timestamp"]) })
        }
        guard let seq = clientTokens.seq(in: conversationID, sender: message.from, token: token, at: message.timestamp),
            let row = try Row.fetchOne(db, cachedSQL: "SELECT * FROM message WHERE seq = ?", arguments: [seq])
        else { return nil }
        // A token recorded in a transaction that was rolled back names a `seq` another message took.
        let stored = RowMapping.message(row)
        return stored.conversationID == conversationID && stored.from == message.from && stored.clientToken == token ? stored : nil
    }

    public func message(id: String) async throws -> Message? {
        try await read { db in
            try Row.fetchOne(db, cachedSQL: "SELECT * FROM message WHERE id = ?", arguments: [id]).map(RowMapping.message)
        }
    }

    public func deleteMessage(id: String) async throws {
        try await writer.write { db in
            try db.executeCached(sql: "DELETE FROM message WHERE id = ?", arguments: [id])
        }
    }

    public func updateMessage(_ message: Message) async throws {
        try await writer.write { db in
            let (text, bytes) = RowMapping.columns(message.content)
            try db.executeCached(
                sql: """
                    UPDATE message SET text = ?, bytes = ?, lctype = ?, mention_all = ?, mention_pids = ?, patch_timestamp = ?, audience = ?
                    WHERE id = ?
                    """,
                arguments: [
                    text, bytes, message.content.typedMessageType, message.mentionAll, RowMapping.json(message.mentionPids),
                    message.patchTimestamp, message.audience.map(RowMapping.json), message.id,
                ]
            )
        }
    }

    public func patchedMessages(visibleTo clientID: String, since: Int64, limit: Int) async throws -> [Message] {
        try await read { db in
            try Row.fetchAll(
                db,
                cachedSQL: """
                    SELECT message.* FROM message
                    JOIN conversation_member ON conversation_member.conversation_id = message.conversation_id
                    WHERE conversation_member.client_id = ? AND message.patch_timestamp > ? AND \(Self.visibleToClient)
                    ORDER BY message.patch_timestamp LIMIT ?
                    """,
                arguments: [clientID, since, clientID, clientID, limit]
            ).map(RowMapping.message)
        }
    }

    public func history(_ query: HistoryQuery) async throws -> [Message] {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        switch query.scope {
        case .conversation(let id):
            conditions.append("conversation_id = ?")
            _ = arguments.append(contentsOf: [id])
        case .sender(let clientID):
            // No index by sender: one cost a tenth of one-to-one throughput (switchboard-bench),
            // for a dashboard's query, which reads the whole table instead (as the app-wide one does).
            conditions.append("sender = ?")
            _ = arguments.append(contentsOf: [clientID])
        case .app:
            conditions.append("1")
        }
        if let reader = query.reader {
            conditions.append(Self.visibleToClient)
            _ = arguments.append(contentsOf: [reader, reader])
        }
        if let type = query.messageType {
            conditions.append("lctype = ?")
            _ = arguments.append(contentsOf: [type])
        }
        let startOperator = query.direction == .older ? "<" : ">"
        let endOperator = query.direction == .older ? ">" : "<"
        for (bound, before) in [(query.start, startOperator), (query.end, endOperator)] {
            guard let bound else { continue }
            let comparison = before + (bound.included ? "=" : "")
            if let messageID = bound.messageID {
                // The plain range first, which the index seeks to; ties by `seq` then.
                conditions.append(
                    "timestamp \(before)= ? AND (timestamp \(before) ? OR seq \(comparison) COALESCE((SELECT seq FROM message WHERE id = ? AND timestamp = ?), ?))"
                )
                _ = arguments.append(contentsOf: [
                    bound.timestamp, bound.timestamp, messageID, bound.timestamp, bound.seqWithoutTheMessage(comparison: before),
                ])
            } else {
                conditions.append("timestamp \(comparison) ?")
                _ = arguments.append(contentsOf: [bound.timestamp])
            }
        }
        _ = arguments.append(contentsOf: [query.limit])
        let order = query.direction == .older ? "DESC" : "ASC"
        let finalArguments = arguments
        let sql = "SELECT * FROM message WHERE \(conditions.joined(separator: " AND ")) ORDER BY timestamp \(order), seq \(order) LIMIT ?"
        let page = try await read { db in
            try Row.fetchAll(db, cachedSQL: sql, arguments: finalArguments).map(RowMapping.message)
        }
        // SDKs expect every page oldest first, whichever way it was read.
        return query.direction == .older ? page.reversed() : page
    }

    public func lastMessages(conversationIDs: [String]) async throws -> [String: Message] {
        guard !conversationIDs.isEmpty else { return [:] }
        let messages = try await read { db in
            try Row.fetchAll(
                db,
                cachedSQL: """
                    SELECT message.* FROM message JOIN (
                        SELECT conversation_id, MAX(timestamp) AS newest FROM message
                        WHERE conversation_id IN \(Self.placeholders(conversationIDs.count)) AND audience IS NULL GROUP BY conversation_id
                    ) AS latest ON latest.conversation_id = message.conversation_id AND latest.newest = message.timestamp
                    WHERE message.audience IS NULL
                    """,
                arguments: Self.padded(conversationIDs)
            ).map(RowMapping.message)
        }
        return Dictionary(messages.map { ($0.conversationID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public func latestMessageTimestamp() async throws -> Int64? {
        try await read { db in
            try Int64.fetchOne(db, sql: "SELECT MAX(timestamp) FROM message")
        }
    }

    public func latestMessageSeq() async throws -> Int64 {
        try await read { db in
            try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(seq), 0) FROM message") ?? 0
        }
    }

    public func keepBroadcast(messageID: String, validTill: Int64) async throws {
        try await writer.write { db in
            try db.executeCached(sql: "INSERT INTO broadcast (message_id, valid_till) VALUES (?, ?)", arguments: [messageID, validTill])
        }
    }

    public func broadcasts(in conversationID: String?, sentAfter: Int64, validAt now: Int64, skip: Int, limit: Int) async throws -> [Message] {
        try await read { db in
            let sql = """
                SELECT message.* FROM broadcast JOIN message ON message.id = broadcast.message_id
                WHERE broadcast.valid_till > ? AND message.timestamp > ? AND (? IS NULL OR message.conversation_id = ?)
                ORDER BY message.timestamp LIMIT ? OFFSET ?
                """
            return try Row.fetchAll(db, cachedSQL: sql, arguments: [now, sentAfter, conversationID, conversationID, limit, skip]).map(RowMapping.message)
        }
    }

    public func deleteBroadcast(messageID: String) async throws -> Bool {
        try await writer.write { db in
            try db.executeCached(sql: "DELETE FROM broadcast WHERE message_id = ?", arguments: [messageID])
            return db.changesCount > 0
        }
    }
}
