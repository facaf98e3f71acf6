import PostgresNIO
import SwitchboardCore

extension PostgresStore: ConversationStore {
    public func createConversation(_ conversation: Conversation) async throws {
        try await saveConversation(conversation)
    }

    public func saveConversation(_ conversation: Conversation) async throws {
        try await transaction { connection in
            try await connection.query(
                """
                INSERT INTO conversation (id, kind, name, creator, attributes, unique_key, muted_by, managers, silenced, silenced_until,
                    blocked, created_at, updated_at, last_message_at, expires_at)
                VALUES (\(conversation.id), \(conversation.kind.rawValue), \(conversation.name), \(conversation.creator),
                    \(RowMapping.json(conversation.attributes)), \(conversation.uniqueKey), \(RowMapping.json(conversation.mutedBy)),
                    \(RowMapping.json(conversation.managers)), \(RowMapping.json(conversation.silenced)),
                    \(RowMapping.json(conversation.silencedUntil)), \(RowMapping.json(conversation.blocked)),
                    \(conversation.createdAt), \(conversation.updatedAt), \(conversation.lastMessageAt), \(conversation.expiresAt))
                ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, name = excluded.name, creator = excluded.creator,
                    attributes = excluded.attributes, unique_key = excluded.unique_key, muted_by = excluded.muted_by,
                    managers = excluded.managers, silenced = excluded.silenced, silenced_until = excluded.silenced_until,
                    blocked = excluded.blocked, created_at = excluded.created_at, updated_at = excluded.updated_at,
                    last_message_at = GREATEST(conversation.last_message_at, excluded.last_message_at), expires_at = excluded.expires_at
                """,
                logger: logger
            )
            try await writeMembers(of: conversation, connection)
        }
    }

    /// As `SQLiteStore`'s: rows of members who left go (unless `keepingOthers`), newcomers
    /// join at `joinedAt` (`updatedAt` unless given) after everyone there, the others' rows stay.
    func writeMembers(of conversation: Conversation, joinedAt: Int64? = nil, keepingOthers: Bool = false, _ connection: PostgresConnection) async throws {
        var stored: [String: Int64] = [:]
        for row in try await connection.all(
            "SELECT client_id, position FROM conversation_member WHERE conversation_id = \(conversation.id) FOR UPDATE", logger
        ) {
            stored[row.string("client_id") ?? ""] = row.int64("position")
        }
        let members = Set(conversation.members)
        let gone = keepingOthers ? [] : stored.keys.filter { !members.contains($0) }
        if !gone.isEmpty {
            try await connection.query(
                "DELETE FROM conversation_member WHERE conversation_id = \(conversation.id) AND client_id = ANY(\(gone))", logger: logger
            )
        }
        let joining = conversation.members.filter { stored[$0] == nil }
        guard !joining.isEmpty else { return }
        let first = (stored.values.max() ?? -1) + 1
        try await connection.query(
            """
            INSERT INTO conversation_member (conversation_id, client_id, position, joined_at, joined_seq)
            SELECT \(conversation.id), member, \(first) + ordinality - 1, \(joinedAt ?? conversation.updatedAt),
                -- A member receives the messages stored after it joined.
                (SELECT COALESCE(MAX(seq), 0) FROM message)
            FROM unnest(\(joining)::text[]) WITH ORDINALITY AS joining(member, ordinality)
            ON CONFLICT DO NOTHING
            """,
            logger: logger
        )
    }

    public func members(of conversationID: String, after clientID: String?, limit: Int) async throws -> [Membership] {
        try await all(
            """
            SELECT conversation_id, client_id, joined_at FROM conversation_member
            WHERE conversation_id = \(conversationID) AND client_id > \(clientID ?? "") ORDER BY client_id LIMIT \(limit)
            """
        ).map(RowMapping.membership)
    }

    public func memberships(
        of clientID: String, kind: Conversation.Kind, after: (joinedAt: Int64, conversationID: String)?, newestFirst: Bool, limit: Int
    ) async throws -> [Membership] {
        let start = after ?? (newestFirst ? (Int64.max, "") : (-1, ""))
        let comparison = newestFirst ? "<" : ">", order = newestFirst ? "DESC" : "ASC"
        return try await all(
            """
            SELECT m.conversation_id, m.client_id, m.joined_at FROM conversation_member m
            JOIN conversation c ON c.id = m.conversation_id AND c.kind = \(kind.rawValue)
            WHERE m.client_id = \(clientID) AND (m.joined_at, m.conversation_id) \(unescaped: comparison) (\(start.0), \(start.1))
            ORDER BY m.joined_at \(unescaped: order), m.conversation_id \(unescaped: order) LIMIT \(limit)
            """
        ).map(RowMapping.membership)
    }

    public func deleteConversations(expiredBefore time: Int64) async throws -> Int {
        try await deleteConversations(ids: try await all("SELECT id FROM conversation WHERE expires_at < \(time)").compactMap { $0.string("id") })
    }

    public func deleteConversation(id: String) async throws {
        _ = try await deleteConversations(ids: [id])
    }

    /// Deletes the conversations with their messages and receipt positions (queued copies
    /// go with their messages, members with their conversation); returns how many there were.
    private func deleteConversations(ids: [String]) async throws -> Int {
        guard !ids.isEmpty else { return 0 }
        return try await transaction { connection in
            try await connection.query("DELETE FROM message WHERE conversation_id = ANY(\(ids))", logger: logger)
            try await connection.query("DELETE FROM receipt_position WHERE conversation_id = ANY(\(ids))", logger: logger)
            return try await connection.all("DELETE FROM conversation WHERE id = ANY(\(ids)) RETURNING id", logger).count
        }
    }

    public func conversation(id: String) async throws -> Conversation? {
        try await conversations(ids: [id]).first
    }

    public func conversation(uniqueKey: String) async throws -> Conversation? {
        try await conversations(try await all("SELECT * FROM conversation WHERE unique_key = \(uniqueKey)")).first
    }

    public func conversations(ids: [String]) async throws -> [Conversation] {
        guard !ids.isEmpty else { return [] }
        return try await conversations(try await all("SELECT * FROM conversation WHERE id = ANY(\(Array(Set(ids))))"))
    }

    public func conversations(withAnyMember members: [String]) async throws -> [Conversation] {
        guard !members.isEmpty else { return [] }
        return try await conversations(try await all(
            "SELECT * FROM conversation WHERE id IN (SELECT conversation_id FROM conversation_member WHERE client_id = ANY(\(members)))"
        ))
    }

    public func conversationIDs(blocking clientID: String) async throws -> [String] {
        try await all("SELECT id FROM conversation WHERE blocked::jsonb @> jsonb_build_array(\(clientID)::text) ORDER BY id").compactMap { $0.string("id") }
    }

    public func recentConversations(limit: Int) async throws -> [Conversation] {
        try await conversations(try await all("SELECT * FROM conversation ORDER BY updated_at DESC LIMIT \(limit)"))
    }

    /// Ids compare byte by byte ("C", as in SQLite and Swift) whatever the database's locale,
    /// through an index of their own (`PostgresSchema` v4).
    public func conversations(after id: String?, limit: Int) async throws -> [Conversation] {
        try await conversations(try await all(
            #"SELECT * FROM conversation WHERE id COLLATE "C" > \#(id ?? "") ORDER BY id COLLATE "C" LIMIT \#(limit)"#
        ))
    }

    public func managedConversations(after id: String?, limit: Int) async throws -> [ManagedConversation] {
        try await all(
            #"""
            SELECT id, managers, created_at, updated_at, expires_at FROM conversation WHERE id COLLATE "C" > \#(id ?? "") AND managers <> '[]'
            ORDER BY id COLLATE "C" LIMIT \#(limit)
            """#
        ).map(RowMapping.managedConversation)
    }

    /// The conversations of `rows`, with their members in the order they joined.
    private func conversations(_ rows: [PostgresRandomAccessRow]) async throws -> [Conversation] {
        guard !rows.isEmpty else { return [] }
        let ids = rows.compactMap { $0.string("id") }
        var members: [String: [String]] = [:]
        for row in try await all("SELECT conversation_id, client_id FROM conversation_member WHERE conversation_id = ANY(\(ids)) ORDER BY position") {
            members[row.string("conversation_id") ?? "", default: []].append(row.string("client_id") ?? "")
        }
        return rows.map { RowMapping.conversation($0, members: members[$0.string("id") ?? ""] ?? []) }
    }
}
