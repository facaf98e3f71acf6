import Foundation
import GRDB
import SwitchboardCore
import SwitchboardData

/// An import's batches, each in one transaction through the batched writer, with the
/// statements prepared once and reused for every row.
extension SQLiteStore: ImportStore {
    public func importConversations(_ conversations: [Conversation]) async throws -> ImportOutcome {
        guard !conversations.isEmpty else { return ImportOutcome() }
        // Dropped even when the write fails: it may have failed after its commit.
        defer { cache.invalidate(conversations.map(\.id)) }
        return try await writer.write { db in
            var outcome = ImportOutcome()
            for (index, given) in conversations.enumerated() {
                let storedUpdate = try Int64.fetchOne(db.cachedStatement(sql: "SELECT updated_at FROM conversation WHERE id = ?"), arguments: [given.id])
                if let storedUpdate, storedUpdate >= given.updatedAt {
                    outcome.alreadyThere += 1
                    continue
                }
                var conversation = given
                if let key = conversation.uniqueKey, let holder = try String.fetchOne(db.cachedStatement(sql: "SELECT id FROM conversation WHERE unique_key = ? AND id != ?"), arguments: [key, conversation.id]
                ) {
                    conversation.uniqueKey = nil
                    outcome.notes.append(.init(index: index, reason: ImportReasons.uniqueKeyTaken(by: holder)))
                }
                try db.executeCached(
                    sql: Self.importConversationSQL,
                    arguments: [
                        conversation.id, conversation.kind.rawValue, conversation.name, conversation.creator,
                        RowMapping.json(conversation.attributes), conversation.uniqueKey, RowMapping.json(conversation.mutedBy),
                        conversation.createdAt, conversation.updatedAt, conversation.lastMessageAt, conversation.expiresAt,
                    ]
                )
                // A system conversation's subscribers come apart from its row (subscribers.jsonl).
                try Self.writeMembers(
                    of: conversation, joinedAt: storedUpdate == nil ? conversation.createdAt : conversation.updatedAt,
                    keepingOthers: conversation.kind == .system, db
                )
                outcome.stored += 1
                if storedUpdate != nil { outcome.replaced += 1 }
            }
            return outcome
        }
    }

    /// The page cache of the connection that writes an import's messages (the writer's, kept).
    static let importCacheKilobytes = 32768

    /// A conversation's row without its roles and lists, which an older version's keep;
    /// `imported_updated_at` marks it as the import wrote it.
    private static let importConversationSQL = """
        INSERT INTO conversation (id, kind, name, creator, attributes, unique_key, muted_by, created_at, updated_at, last_message_at,
            expires_at, imported_updated_at)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?9)
        ON CONFLICT(id) DO UPDATE SET kind = excluded.kind, name = excluded.name, creator = excluded.creator,
            attributes = excluded.attributes, unique_key = excluded.unique_key, muted_by = excluded.muted_by,
            created_at = excluded.created_at, updated_at = excluded.updated_at,
            last_message_at = COALESCE(MAX(last_message_at, excluded.last_message_at), last_message_at, excluded.last_message_at),
            expires_at = excluded.expires_at, imported_updated_at = excluded.imported_updated_at
        """

    public func importRoles(_ roles: [ImportedRole]) async throws -> ImportOutcome {
        guard !roles.isEmpty else { return ImportOutcome() }
        defer { cache.invalidate(roles.map(\.conversationID)) }
        return try await writer.write { db in
            var outcome = ImportOutcome()
            for (index, role) in roles.enumerated() {
                guard let conversation = try Self.asImported(role.conversationID, db).target(of: index, role.conversationID, in: &outcome) else { continue }
                guard let managers = role.managers(
                    applyingTo: RowMapping.stringArray(conversation["managers"]), creator: conversation["creator"], at: index, in: &outcome
                ) else { continue }
                try db.executeCached(
                    sql: "UPDATE conversation SET managers = ? WHERE id = ?", arguments: [RowMapping.json(managers), role.conversationID]
                )
                outcome.stored += 1
            }
            return outcome
        }
    }

    public func importLists(_ lists: [ImportedLists]) async throws -> ImportOutcome {
        guard !lists.isEmpty else { return ImportOutcome() }
        defer { cache.invalidate(lists.map(\.conversationID)) }
        return try await writer.write { db in
            var outcome = ImportOutcome()
            for (index, list) in lists.enumerated() {
                guard let conversation = try Self.asImported(list.conversationID, db).target(of: index, list.conversationID, in: &outcome) else { continue }
                guard RowMapping.stringArray(conversation["blocked"]) != list.blocked
                    || RowMapping.stringArray(conversation["silenced"]) != list.silenced
                else {
                    outcome.alreadyThere += 1
                    continue
                }
                try db.executeCached(
                    sql: "UPDATE conversation SET blocked = ?, silenced = ? WHERE id = ?",
                    arguments: [RowMapping.json(list.blocked), RowMapping.json(list.silenced), list.conversationID]
                )
                outcome.stored += 1
            }
            return outcome
        }
    }

    public func importSubscriptions(_ subscriptions: [Membership]) async throws -> ImportOutcome {
        guard !subscriptions.isEmpty else { return ImportOutcome() }
        defer { cache.invalidate(subscriptions.map(\.conversationID)) }
        return try await writer.write { db in
            var outcome = ImportOutcome()
            // The next member position of each conversation, read once a batch: a system
            // conversation may have millions of subscribers.
            var nextPosition: [String: Int64] = [:]
            for (index, subscription) in subscriptions.enumerated() {
                guard let conversation = try Self.asImported(subscription.conversationID, db).target(of: index, subscription.conversationID, in: &outcome) else { continue }
                guard (conversation["kind"] as Int) == Conversation.Kind.system.rawValue else {
                    outcome.skip(index, ImportReasons.notSystem(subscription.conversationID))
                    continue
                }
                let joinedAt = try Int64.fetchOne(db.cachedStatement(sql: "SELECT joined_at FROM conversation_member WHERE conversation_id = ? AND client_id = ?"),
                    arguments: [subscription.conversationID, subscription.clientID]
                )
                if joinedAt == subscription.joinedAt {
                    outcome.alreadyThere += 1
                    continue
                }
                if joinedAt != nil {
                    try db.executeCached(
                        sql: "UPDATE conversation_member SET joined_at = ? WHERE conversation_id = ? AND client_id = ?",
                        arguments: [subscription.joinedAt, subscription.conversationID, subscription.clientID]
                    )
                    outcome.replaced += 1
                } else {
                    let position = try nextPosition[subscription.conversationID] ?? Int64.fetchOne(db.cachedStatement(sql: "SELECT COALESCE(MAX(position), -1) + 1 FROM conversation_member WHERE conversation_id = ?"),
                        arguments: [subscription.conversationID]
                    ) ?? 0
                    nextPosition[subscription.conversationID] = position + 1
                    try db.executeCached(
                        // Imported history is not delivered: the member receives what is stored from now on.
                        sql: """
                            INSERT INTO conversation_member (conversation_id, client_id, position, joined_at, joined_seq, joined_floor)
                            VALUES (?, ?, ?, ?, (SELECT COALESCE(MAX(seq), 0) FROM message), (SELECT newest FROM delivery_clock))
                            """,
                        arguments: [subscription.conversationID, subscription.clientID, position, subscription.joinedAt]
                    )
                }
                outcome.stored += 1
            }
            return outcome
        }
    }

    public func importMessages(_ messages: [Message], after turn: @Sendable () async throws -> Void) async throws -> ImportOutcome {
        guard !messages.isEmpty else {
            try await turn()
            return ImportOutcome()
        }
        // Each row's arguments, and its conversation by number, are made here, on the
        // caller's thread, while the batch before is written: the writer's thread is an
        // import's bottleneck, left the statements alone.
        var conversations: [String] = [], numbers: [String: Int] = [:]
        let conversationOfRow = messages.map { message in
            if let number = numbers[message.conversationID] { return number }
            numbers[message.conversationID] = conversations.count
            conversations.append(message.conversationID)
            return conversations.count - 1
        }
        let rows = messages.map { message in
            let (text, bytes) = RowMapping.columns(message.content)
            return StatementArguments([
                message.id, message.conversationID, message.from, text, bytes, message.content.typedMessageType, message.timestamp,
                message.mentionAll, RowMapping.json(message.mentionPids), message.patchTimestamp,
            ] as [(any DatabaseValueConvertible)?])
        }
        let conversationIDs = conversations
        // Inserted a conversation at a time, each one's in the order given (its history's
        // order, `seq`): the index by conversation, when it is kept up, then takes them on
        // pages that are at hand, where the export's order spread them over every page of it.
        let order = rows.indices.sorted { (conversationOfRow[$0], $0) < (conversationOfRow[$1], $1) }
        try await turn()
        return try await writer.write { db in
            // The indexes by id and (when kept up) by conversation take every batch's messages
            // all over: with SQLite's default cache of 2 MB their pages are read again from the
            // file for each.
            try db.execute(sql: "PRAGMA cache_size = -\(Self.importCacheKilobytes)")
            let exists = try db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM conversation WHERE id = ?)")
            let present = try conversationIDs.map { try Bool.fetchOne(exists, arguments: [$0]) ?? false }
            // No client token (it only guards a sender's resend) and no queue: imported
            // history is read, not delivered.
            let insert = try db.cachedStatement(
                sql: """
                    INSERT OR IGNORE INTO message (id, conversation_id, sender, text, bytes, lctype, timestamp, mention_all, mention_pids, patch_timestamp)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            )
            var outcome = ImportOutcome()
            for index in order {
                guard present[conversationOfRow[index]] else {
                    outcome.skip(index, ImportReasons.noConversation(conversationIDs[conversationOfRow[index]]))
                    continue
                }
                insert.setUncheckedArguments(rows[index])
                try insert.execute()
                if db.changesCount > 0 { outcome.stored += 1 } else { outcome.alreadyThere += 1 }
            }
            outcome.skipped.sort { $0.index < $1.index }
            return outcome
        }
    }

    /// Sets `HistoryIndex` aside when the import brings at least as many messages as the
    /// store holds: building it again then costs no more than the import's own messages.
    public func startImportingMessages(expected: Int) async throws {
        try await writer.write { db in
            // `seq` only grows: its largest is about the messages held, without counting them.
            let held = try Int.fetchOne(db, sql: "SELECT max(seq) FROM message") ?? 0
            if expected >= held { try db.execute(sql: HistoryIndex.drop) }
        }
    }

    public func finishImportingMessages() async throws {
        try await writer.write { try $0.execute(sql: HistoryIndex.create) }
    }

    public func markImportedHistoryRead(_ newest: [String: Int64]) async throws {
        guard !newest.isEmpty else { return }
        defer { cache.invalidate(newest.keys) }
        try await writer.write { db in
            for (conversationID, timestamp) in newest {
                try db.executeCached(
                    sql: "UPDATE conversation SET last_message_at = MAX(COALESCE(last_message_at, ?1), ?1) WHERE id = ?2",
                    arguments: [timestamp, conversationID]
                )
                try db.executeCached(
                    sql: """
                        INSERT INTO receipt_position (conversation_id, client_id, acknowledged_up_to, read_up_to)
                        SELECT conversation_id, client_id, ?2, ?2 FROM conversation_member WHERE conversation_id = ?1
                        ON CONFLICT DO UPDATE SET
                            acknowledged_up_to = max(acknowledged_up_to, excluded.acknowledged_up_to),
                            read_up_to = max(read_up_to, excluded.read_up_to)
                        """,
                    arguments: [conversationID, timestamp]
                )
            }
        }
    }

    public func importInstallations(_ installations: [SavedInstallation]) async throws -> ImportOutcome {
        guard !installations.isEmpty else { return ImportOutcome() }
        return try await writer.write { db in
            var outcome = ImportOutcome()
            for saved in installations {
                let device = saved.installation
                let storedUpdate = try Int64.fetchOne(db.cachedStatement(sql: "SELECT updated_at FROM installation WHERE object_id = ?"), arguments: [saved.objectID])
                if let storedUpdate, storedUpdate >= saved.updatedAt {
                    outcome.alreadyThere += 1
                    continue
                }
                // The device saved itself here since, under another object id: what it saved is newer.
                if try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM installation WHERE (device_token = ? OR installation_id = ?) AND object_id != ?)"),
                    arguments: [device.deviceToken, device.installationID, saved.objectID]
                ) == true {
                    outcome.alreadyThere += 1
                    continue
                }
                try db.executeCached(
                    sql: """
                        INSERT INTO installation (
                            object_id, device_type, device_token, installation_id, registration_id, vendor, device_profile, badge, created_at, updated_at
                        )
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (object_id) DO UPDATE SET device_type = excluded.device_type, device_token = excluded.device_token,
                            installation_id = excluded.installation_id, registration_id = excluded.registration_id, vendor = excluded.vendor,
                            device_profile = excluded.device_profile, badge = excluded.badge, created_at = excluded.created_at, updated_at = excluded.updated_at
                        """,
                    arguments: [
                        saved.objectID, device.deviceType.rawValue, device.deviceToken, device.installationID, device.registrationID,
                        device.vendor, device.deviceProfile, saved.badge, saved.createdAt, saved.updatedAt,
                    ]
                )
                try Self.change(channels: .set(device.channels), of: saved.objectID, db)
                outcome.stored += 1
                if storedUpdate != nil { outcome.replaced += 1 }
            }
            return outcome
        }
    }

    /// The conversation's row while it is as an import last wrote it (its roles, lists and
    /// subscribers from an export apply), or whether it changed here since or is missing.
    private static func asImported(_ id: String, _ db: Database) throws -> ImportedConversation<Row> {
        guard let row = try Row.fetchOne(db, cachedSQL: "SELECT * FROM conversation WHERE id = ?", arguments: [id]) else { return .missing }
        let updatedAt: Int64 = row["updated_at"]
        let importedAt: Int64? = row["imported_updated_at"]
        return importedAt == updatedAt ? .imported(row) : .changedHere
    }
}
