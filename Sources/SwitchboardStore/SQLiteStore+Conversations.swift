import GRDB
import SwitchboardCore

extension SQLiteStore: ConversationStore {
    public func createConversation(_ conversation: Conversation) async throws {
        try await saveConversation(conversation)
    }

    public func saveConversation(_ conversation: Conversation) async throws {
        // Dropped even when the write fails: it may have failed after its commit.
        defer { cache.invalidate([conversation.id]) }
        try await writer.write { db in
            try Self.insert(conversation, db)
        }
    }

    public func members(of conversationID: String, after clientID: String?, limit: Int) async throws -> [Membership] {
        try await read { db in
            try Row.fetchAll(
                db,
                cachedSQL: """
                    SELECT conversation_id, client_id, joined_at FROM conversation_member
                    WHERE conversation_id = ? AND client_id > ? ORDER BY client_id LIMIT ?
                    """,
                arguments: [conversationID, clientID ?? "", limit]
            ).map(RowMapping.membership)
        }
    }

    public func memberships(
        of clientID: String, kind: Conversation.Kind, after: (joinedAt: Int64, conversationID: String)?, newestFirst: Bool, limit: Int
    ) async throws -> [Membership] {
        // Past the start of the order when no place is given: every join time is at least 0.
        let start = after ?? (newestFirst ? (Int64.max, "") : (-1, ""))
        return try await read { db in
            try Row.fetchAll(
                db,
                cachedSQL: """
                    SELECT conversation_member.conversation_id, client_id, joined_at FROM conversation_member
                    JOIN conversation ON conversation.id = conversation_member.conversation_id AND conversation.kind = ?
                    WHERE client_id = ? AND (joined_at, conversation_member.conversation_id) \(newestFirst ? "<" : ">") (?, ?)
                    ORDER BY joined_at \(newestFirst ? "DESC" : ""), conversation_member.conversation_id \(newestFirst ? "DESC" : "") LIMIT ?
                    """,
                arguments: [kind.rawValue, clientID, start.0, start.1, limit]
            ).map(RowMapping.membership)
        }
    }

    public func deleteConversations(expiredBefore time: Int64) async throws -> Int {
        try await deleteConversations(where: "expires_at < ?", arguments: [time])
    }

    public func deleteConversation(id: String) async throws {
        _ = try await deleteConversations(where: "id = ?", arguments: [id])
    }

    /// Deletes the conversations `condition` selects with their messages and receipt
    /// positions (queued copies go with their messages, members with their conversation, by
    /// cascade); returns how many.
    private func deleteConversations(where condition: String, arguments: StatementArguments) async throws -> Int {
        let selected = "SELECT id FROM conversation WHERE \(condition)"
        let ids = try await writer.write { db in
            let ids = try String.fetchAll(db, sql: selected, arguments: arguments)
            try db.executeCached(sql: "DELETE FROM message WHERE conversation_id IN (\(selected))", arguments: arguments)
            try db.executeCached(sql: "DELETE FROM receipt_position WHERE conversation_id IN (\(selected))", arguments: arguments)
            try db.executeCached(sql: "DELETE FROM conversation WHERE \(condition)", arguments: arguments)
            return ids
        }
        cache.invalidate(ids)
        return ids.count
    }

    public func conversation(id: String) async throws -> Conversation? {
        try await conversations(ids: [id]).first
    }

    public func conversation(uniqueKey: String) async throws -> Conversation? {
        try await read { db in
            try Self.conversations(db, sql: "SELECT * FROM conversation WHERE unique_key = ?", arguments: [uniqueKey]).first
        }
    }

    public func conversations(ids: [String]) async throws -> [Conversation] {
        var seen = Set<String>()
        let (found, missing) = cache.lookUp(ids.filter { seen.insert($0).inserted })
        guard !missing.isEmpty else { return found }
        let start = cache.beginRead()
        let read = try await read { db in
            try Self.conversations(db, sql: "SELECT * FROM conversation WHERE id IN \(Self.placeholders(missing.count))", arguments: Self.padded(missing))
        }
        cache.fill(read, readSince: start)
        return found + read
    }

    public func conversations(withAnyMember members: [String]) async throws -> [Conversation] {
        guard !members.isEmpty else { return [] }
        return try await read { db in
            try Self.conversations(
                db,
                sql: """
                    SELECT * FROM conversation WHERE id IN (
                        SELECT conversation_id FROM conversation_member WHERE client_id IN \(Self.placeholders(members.count)))
                    """,
                arguments: Self.padded(members)
            )
        }
    }

    public func conversationIDs(blocking clientID: String) async throws -> [String] {
        try await read { db in
            try String.fetchAll(
                db, sql: "SELECT id FROM conversation WHERE EXISTS (SELECT 1 FROM json_each(conversation.blocked) WHERE value = ?) ORDER BY id",
                arguments: [clientID]
            )
        }
    }

    public func recentConversations(limit: Int) async throws -> [Conversation] {
        try await read { db in
            try Self.conversations(db, sql: "SELECT * FROM conversation ORDER BY updated_at DESC LIMIT ?", arguments: [limit])
        }
    }

    public func conversations(after id: String?, limit: Int) async throws -> [Conversation] {
        try await read { db in
            try Self.conversations(db, sql: "SELECT * FROM conversation WHERE id > ? ORDER BY id LIMIT ?", arguments: [id ?? "", limit])
        }
    }

    public func managedConversations(after id: String?, limit: Int) async throws -> [ManagedConversation] {
        try await read { db in
            try Row.fetchAll(
                db, cachedSQL: "SELECT id, managers, created_at, updated_at, expires_at FROM conversation WHERE id > ? AND managers <> '[]' ORDER BY id LIMIT ?",
                arguments: [id ?? "", limit]
            ).map(RowMapping.managedConversation)
        }
    }

    private static let insertConversationSQL: String = {
        let columns = [
            "id", "kind", "name", "creator", "attributes", "unique_key", "muted_by", "managers", "silenced", "silenced_until",
            "blocked", "created_at", "updated_at", "last_message_at", "expires_at",
        ]
        return "INSERT INTO conversation (\(columns.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
            + " ON CONFLICT(id) DO UPDATE SET " + columns.dropFirst().map { column in
                // The copy saved may have been read before a message was stored: never back.
                column == "last_message_at"
                    ? "last_message_at = COALESCE(MAX(last_message_at, excluded.last_message_at), last_message_at, excluded.last_message_at)"
                    : "\(column) = excluded.\(column)"
            }.joined(separator: ", ")
    }()

    /// Writes the conversation's row (over the one already there, if any), then its members.
    private static func insert(_ conversation: Conversation, _ db: Database) throws {
        try db.executeCached(
            sql: insertConversationSQL,
            arguments: [
                conversation.id, conversation.kind.rawValue, conversation.name, conversation.creator,
                RowMapping.json(conversation.attributes), conversation.uniqueKey, RowMapping.json(conversation.mutedBy),
                RowMapping.json(conversation.managers), RowMapping.json(conversation.silenced),
                RowMapping.json(conversation.silencedUntil), RowMapping.json(conversation.blocked),
                conversation.createdAt, conversation.updatedAt, conversation.lastMessageAt, conversation.expiresAt,
            ]
        )
        try writeMembers(of: conversation, db)
    }

    /// Deletes the rows of members who left (unless `keepingOthers`) and adds those who
    /// joined (at `joinedAt`, the conversation's `updatedAt` unless given, after everyone
    /// there), leaving the others' rows alone: a rename of a big group writes no member
    /// row, and join times survive changes.
    static func writeMembers(of conversation: Conversation, joinedAt: Int64? = nil, keepingOthers: Bool = false, _ db: Database) throws {
        var stored: [String: Int] = [:]
        for row in try Row.fetchAll(db, cachedSQL: "SELECT client_id, position FROM conversation_member WHERE conversation_id = ?", arguments: [conversation.id]) {
            stored[row["client_id"]] = row["position"]
        }
        let members = Set(conversation.members)
        for client in stored.keys where !keepingOthers && !members.contains(client) {
            try db.executeCached(sql: "DELETE FROM conversation_member WHERE conversation_id = ? AND client_id = ?", arguments: [conversation.id, client])
        }
        var position = (stored.values.max() ?? -1) + 1
        for member in conversation.members where stored[member] == nil {
            try db.executeCached(
                // A member receives the messages stored after it joined.
                sql: """
                    INSERT OR IGNORE INTO conversation_member (conversation_id, client_id, position, joined_at, joined_seq, joined_floor)
                    VALUES (?, ?, ?, ?, (SELECT COALESCE(MAX(seq), 0) FROM message), (SELECT newest FROM delivery_clock))
                    """,
                arguments: [conversation.id, member, position, joinedAt ?? conversation.updatedAt]
            )
            position += 1
        }
    }

    private static func conversations(_ db: Database, sql: String, arguments: StatementArguments) throws -> [Conversation] {
        let rows = try Row.fetchAll(db, cachedSQL: sql, arguments: arguments)
        guard !rows.isEmpty else { return [] }
        let ids: [String] = rows.map { $0["id"] }
        var members: [String: [String]] = [:]
        let memberRows = try Row.fetchAll(
            db,
            cachedSQL: "SELECT conversation_id, client_id FROM conversation_member WHERE conversation_id IN \(placeholders(ids.count)) ORDER BY position",
            arguments: Self.padded(ids)
        )
        for row in memberRows {
            members[row["conversation_id"], default: []].append(row["client_id"])
        }
        return rows.map { RowMapping.conversation($0, members: members[$0["id"]] ?? []) }
    }
}
