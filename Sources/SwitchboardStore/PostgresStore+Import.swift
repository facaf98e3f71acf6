import Foundation
import Logging
import PostgresNIO
import SwitchboardCore
import SwitchboardData

/// An import's batches, each in one transaction. Messages, the bulk of an export, go in
/// with one statement a batch (arrays unnested); conversations, roles, lists, subscribers
/// and installations, far fewer, a row at a time as `SQLiteStore` writes them.
extension PostgresStore: ImportStore {
    public func importConversations(_ conversations: [Conversation]) async throws -> ImportOutcome {
        guard !conversations.isEmpty else { return ImportOutcome() }
        return try await transaction { connection in
            var outcome = ImportOutcome()
            var storedUpdates: [String: Int64] = [:]
            for row in try await connection.all(
                "SELECT id, updated_at FROM conversation WHERE id = ANY(\(conversations.map(\.id))) FOR UPDATE", logger
            ) {
                storedUpdates[row.string("id") ?? ""] = row.int64("updated_at")
            }
            for (index, given) in conversations.enumerated() {
                let storedUpdate = storedUpdates[given.id]
                if let storedUpdate, storedUpdate >= given.updatedAt {
                    outcome.alreadyThere += 1
                    continue
                }
                var conversation = given
                if let key = conversation.uniqueKey, let holder = try await connection.all(
                    "SELECT id FROM conversation WHERE unique_key = \(key) AND id != \(conversation.id)", logger
                ).first?.string("id") {
                    conversation.uniqueKey = nil
                    outcome.notes.append(.init(index: index, reason: ImportReasons.uniqueKeyTaken(by: holder)))
                }
                try await connection.query(
                    """
                    INSERT INTO conversation (id, kind, name, creator, attributes, unique_key, muted_by, created_at, updated_at,
                        last_message_at, expires_at, imported_updated_at)
                    VALUES (\(conversation.id), \(conversation.kind.rawValue), \(conversation.name), \(conversation.creator),
                        \(RowMapping.json(conversation.attributes)), \(conversation.uniqueKey), \(RowMapping.json(conversation.mutedBy)),
                        \(conversation.createdAt), \(conversation.updatedAt), \(conversation.lastMessageAt), \(conversation.expiresAt),
                        \(conversation.updatedAt))
                    ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, name = excluded.name, creator = excluded.creator,
                        attributes = excluded.attributes, unique_key = excluded.unique_key, muted_by = excluded.muted_by,
                        created_at = excluded.created_at, updated_at = excluded.updated_at,
                        last_message_at = GREATEST(conversation.last_message_at, excluded.last_message_at),
                        expires_at = excluded.expires_at, imported_updated_at = excluded.imported_updated_at
                    """,
                    logger: logger
                )
                // A system conversation's subscribers come apart from its row (subscribers.jsonl).
                try await writeMembers(
                    of: conversation, joinedAt: storedUpdate == nil ? conversation.createdAt : conversation.updatedAt,
                    keepingOthers: conversation.kind == .system, connection
                )
                storedUpdates[conversation.id] = conversation.updatedAt
                outcome.stored += 1
                if storedUpdate != nil { outcome.replaced += 1 }
            }
            return outcome
        }
    }

    public func importRoles(_ roles: [ImportedRole]) async throws -> ImportOutcome {
        guard !roles.isEmpty else { return ImportOutcome() }
        return try await transaction { connection in
            var outcome = ImportOutcome()
            for (index, role) in roles.enumerated() {
                guard let conversation = try await asImported(role.conversationID, connection).target(of: index, role.conversationID, in: &outcome) else { continue }
                guard let managers = role.managers(
                    applyingTo: RowMapping.stringArray(conversation.string("managers")), creator: conversation.string("creator") ?? "",
                    at: index, in: &outcome
                ) else { continue }
                try await connection.query(
                    "UPDATE conversation SET managers = \(RowMapping.json(managers)) WHERE id = \(role.conversationID)", logger: logger
                )
                outcome.stored += 1
            }
            return outcome
        }
    }

    public func importLists(_ lists: [ImportedLists]) async throws -> ImportOutcome {
        guard !lists.isEmpty else { return ImportOutcome() }
        return try await transaction { connection in
            var outcome = ImportOutcome()
            for (index, list) in lists.enumerated() {
                guard let conversation = try await asImported(list.conversationID, connection).target(of: index, list.conversationID, in: &outcome) else { continue }
                guard RowMapping.stringArray(conversation.string("blocked")) != list.blocked
                    || RowMapping.stringArray(conversation.string("silenced")) != list.silenced
                else {
                    outcome.alreadyThere += 1
                    continue
                }
                try await connection.query(
                    """
                    UPDATE conversation SET blocked = \(RowMapping.json(list.blocked)), silenced = \(RowMapping.json(list.silenced))
                    WHERE id = \(list.conversationID)
                    """,
                    logger: logger
                )
                outcome.stored += 1
            }
            return outcome
        }
    }

    public func importSubscriptions(_ subscriptions: [Membership]) async throws -> ImportOutcome {
        guard !subscriptions.isEmpty else { return ImportOutcome() }
        return try await transaction { connection in
            var outcome = ImportOutcome()
            // The next member position of each conversation, read once a batch: a system
            // conversation may have millions of subscribers.
            var nextPosition: [String: Int64] = [:]
            for (index, subscription) in subscriptions.enumerated() {
                guard let conversation = try await asImported(subscription.conversationID, connection).target(of: index, subscription.conversationID, in: &outcome) else { continue }
                guard conversation.int64("kind") == Int64(Conversation.Kind.system.rawValue) else {
                    outcome.skip(index, ImportReasons.notSystem(subscription.conversationID))
                    continue
                }
                let joined = try await connection.all(
                    """
                    SELECT joined_at FROM conversation_member
                    WHERE conversation_id = \(subscription.conversationID) AND client_id = \(subscription.clientID)
                    """,
                    logger
                ).first.map { $0.int64("joined_at") ?? 0 }
                if joined == subscription.joinedAt {
                    outcome.alreadyThere += 1
                    continue
                }
                if joined != nil {
                    try await connection.query(
                        """
                        UPDATE conversation_member SET joined_at = \(subscription.joinedAt)
                        WHERE conversation_id = \(subscription.conversationID) AND client_id = \(subscription.clientID)
                        """,
                        logger: logger
                    )
                    outcome.replaced += 1
                } else {
                    let position: Int64
                    if let next = nextPosition[subscription.conversationID] {
                        position = next
                    } else {
                        position = try await connection.all(
                            "SELECT COALESCE(MAX(position), -1) + 1 AS next FROM conversation_member WHERE conversation_id = \(subscription.conversationID)",
                            logger
                        ).first?.int64("next") ?? 0
                    }
                    nextPosition[subscription.conversationID] = position + 1
                    try await connection.query(
                        """
                        INSERT INTO conversation_member (conversation_id, client_id, position, joined_at, joined_seq)
                        VALUES (\(subscription.conversationID), \(subscription.clientID), \(Int32(clamping: position)), \(subscription.joinedAt),
                            (SELECT COALESCE(MAX(seq), 0) FROM message))
                        """,
                        logger: logger
                    )
                }
                outcome.stored += 1
            }
            return outcome
        }
    }

    /// PostgreSQL's indexes are kept up as messages go in: the other nodes may be serving
    /// history from the database meanwhile.
    public func startImportingMessages(expected: Int) async throws {}

    public func finishImportingMessages() async throws {}

    public func importMessages(_ messages: [Message], after turn: @Sendable () async throws -> Void) async throws -> ImportOutcome {
        try await turn()
        guard !messages.isEmpty else { return ImportOutcome() }
        return try await transaction { connection in
            var outcome = ImportOutcome()
            let present = Set(try await connection.all(
                "SELECT id FROM conversation WHERE id = ANY(\(Array(Set(messages.map(\.conversationID)))))", logger
            ).compactMap { $0.string("id") })
            var batch: [Message] = []
            batch.reserveCapacity(messages.count)
            for (index, message) in messages.enumerated() {
                if present.contains(message.conversationID) {
                    batch.append(message)
                } else {
                    outcome.skip(index, ImportReasons.noConversation(message.conversationID))
                }
            }
            guard !batch.isEmpty else { return outcome }
            // Arrays hold no nulls here: text or bytes, and a patch time, go with flags that
            // say which are there.
            let contents = batch.map { RowMapping.columns($0.content) }
            let inserted = try await connection.all(
                """
                INSERT INTO message (id, conversation_id, sender, text, bytes, lctype, timestamp, mention_all, mention_pids, patch_timestamp)
                SELECT id, conversation_id, sender, CASE WHEN is_binary THEN NULL ELSE text END, CASE WHEN is_binary THEN bytes END,
                    lctype, timestamp, mention_all, mention_pids, CASE WHEN patched THEN patch_timestamp END
                FROM unnest(\(batch.map(\.id))::text[], \(batch.map(\.conversationID))::text[], \(batch.map(\.from))::text[],
                    \(contents.map { $0.text ?? "" })::text[], \(contents.map { $0.bytes != nil })::boolean[],
                    \(contents.map { ByteBuffer(bytes: $0.bytes ?? Data()) })::bytea[], \(batch.map(\.content.typedMessageType))::integer[],
                    \(batch.map(\.timestamp))::bigint[], \(batch.map(\.mentionAll))::boolean[], \(batch.map { RowMapping.json($0.mentionPids) })::text[],
                    \(batch.map { $0.patchTimestamp != nil })::boolean[], \(batch.map { $0.patchTimestamp ?? 0 })::bigint[])
                    WITH ORDINALITY AS new(id, conversation_id, sender, text, is_binary, bytes, lctype, timestamp, mention_all, mention_pids,
                        patched, patch_timestamp, place)
                ORDER BY place
                ON CONFLICT DO NOTHING RETURNING id
                """,
                logger
            )
            // In the order given, so each message's place in history (its seq) is its place in the export.
            var fresh = Set(inserted.compactMap { $0.string("id") })
            for message in batch {
                if fresh.remove(message.id) != nil { outcome.stored += 1 } else { outcome.alreadyThere += 1 }
            }
            return outcome
        }
    }

    public func markImportedHistoryRead(_ newest: [String: Int64]) async throws {
        guard !newest.isEmpty else { return }
        let ids = Array(newest.keys)
        try await run(
            """
            WITH newest AS (SELECT * FROM unnest(\(ids)::text[], \(ids.map { newest[$0] ?? 0 })::bigint[]) AS newest(conversation_id, at)),
                moved AS (
                    UPDATE conversation SET last_message_at = GREATEST(conversation.last_message_at, newest.at)
                    FROM newest WHERE conversation.id = newest.conversation_id
                )
            INSERT INTO receipt_position (conversation_id, client_id, acknowledged_up_to, read_up_to)
            SELECT newest.conversation_id, member.client_id, newest.at, newest.at
            FROM newest JOIN conversation_member AS member ON member.conversation_id = newest.conversation_id
            ON CONFLICT (conversation_id, client_id) DO UPDATE SET
                acknowledged_up_to = GREATEST(receipt_position.acknowledged_up_to, excluded.acknowledged_up_to),
                read_up_to = GREATEST(receipt_position.read_up_to, excluded.read_up_to)
            """
        )
    }

    public func importInstallations(_ installations: [SavedInstallation]) async throws -> ImportOutcome {
        guard !installations.isEmpty else { return ImportOutcome() }
        return try await transaction { connection in
            var outcome = ImportOutcome()
            for saved in installations {
                let device = saved.installation
                let storedUpdate = try await connection.all(
                    "SELECT updated_at FROM installation WHERE object_id = \(saved.objectID) FOR UPDATE", logger
                ).first?.int64("updated_at")
                if let storedUpdate, storedUpdate >= saved.updatedAt {
                    outcome.alreadyThere += 1
                    continue
                }
                // The device saved itself here since, under another object id: what it saved is newer.
                if try await !connection.all(
                    """
                    SELECT 1 FROM installation
                    WHERE (device_token = \(device.deviceToken) OR installation_id = \(device.installationID)) AND object_id != \(saved.objectID)
                    """,
                    logger
                ).isEmpty {
                    outcome.alreadyThere += 1
                    continue
                }
                try await connection.query(
                    """
                    INSERT INTO installation (
                        object_id, device_type, device_token, installation_id, registration_id, vendor, device_profile, badge, created_at, updated_at
                    )
                    VALUES (\(saved.objectID), \(device.deviceType.rawValue), \(device.deviceToken), \(device.installationID),
                        \(device.registrationID), \(device.vendor), \(device.deviceProfile), \(saved.badge), \(saved.createdAt), \(saved.updatedAt))
                    ON CONFLICT (object_id) DO UPDATE SET device_type = excluded.device_type, device_token = excluded.device_token,
                        installation_id = excluded.installation_id, registration_id = excluded.registration_id, vendor = excluded.vendor,
                        device_profile = excluded.device_profile, badge = excluded.badge, created_at = excluded.created_at, updated_at = excluded.updated_at
                    """,
                    logger: logger
                )
                try await Self.change(channels: .set(device.channels), of: saved.objectID, connection, logger)
                outcome.stored += 1
                if storedUpdate != nil { outcome.replaced += 1 }
            }
            return outcome
        }
    }

    /// The conversation's row, locked, while it is as an import last wrote it (its roles,
    /// lists and subscribers from an export apply), or whether it changed here since or is missing.
    private func asImported(_ id: String, _ connection: PostgresConnection) async throws -> ImportedConversation<PostgresRandomAccessRow> {
        guard let row = try await connection.all("SELECT * FROM conversation WHERE id = \(id) FOR UPDATE", logger).first else { return .missing }
        return row.int64("imported_updated_at") == row.int64("updated_at") ? .imported(row) : .changedHere
    }
}
