import Foundation
import GRDB
import SwitchboardCore

/// `MessageStore` over one SQLite file in WAL mode: one writer, concurrent readers.
public final class SQLiteStore: MessageStore {
    let pool: DatabasePool
    let writer: BatchedWriter
    private let fileGuard: DatabaseFileGuard
    /// Conversations with their members, read on every message sent.
    let cache = ConversationCache(capacity: 100_000)

    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    public init(path: String) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            // WAL makes a commit durable at the next checkpoint with NORMAL; a power cut can
            // lose the last transactions but never corrupts the file. Acknowledged messages
            // survive a crash of the process, which is what the ack promises.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // A checkpoint that resets the write-ahead log also cuts its file back to this,
            // so a burst does not keep its disk space for good.
            try db.execute(sql: "PRAGMA journal_size_limit = 16777216")
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        fileGuard = DatabaseFileGuard(path: path)
        writer = BatchedWriter(pool: pool, fileGuard: fileGuard)
        try Migrations.migrator.migrate(pool)
        try pool.write { try $0.execute(sql: HistoryIndex.create) }
    }

    /// False once the database file was deleted or replaced under the running server:
    /// writes are then refused (see `DatabaseFileGuard`).
    public var acceptsWrites: Bool { !fileGuard.isBroken }

    // MARK: Conversations

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

    // MARK: Messages

    public func append(_ message: Message, queueFor recipients: [String]) async throws -> Message {
        do {
            let stored = try await insert(message, queueFor: recipients)
            // A copy sent again keeps the first one's time, which is what the row has.
            cache.messageStored(in: message.conversationID, at: stored.timestamp)
            return stored
        } catch {
            // It may have failed after its commit.
            cache.invalidate([message.conversationID])
            throw error
        }
    }

    private func insert(_ message: Message, queueFor recipients: [String]) async throws -> Message {
        try await writer.write { db in
            let (text, bytes) = RowMapping.columns(message.content)
            try db.executeCached(
                sql: """
                    INSERT OR IGNORE INTO message (id, conversation_id, sender, text, bytes, lctype, timestamp, mention_all, mention_pids,
                        patch_timestamp, wants_receipt, client_token, audience)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    message.id, message.conversationID, message.from, text, bytes, message.content.typedMessageType,
                    message.timestamp, message.mentionAll, RowMapping.json(message.mentionPids), message.patchTimestamp,
                    message.wantsReceipt, message.clientToken, message.audience.map(RowMapping.json),
                ]
            )
            guard db.changesCount > 0 else {
                // Only the client token can collide: message ids never repeat.
                let stored = try Row.fetchOne(
                    db, cachedSQL: "SELECT * FROM message WHERE conversation_id = ? AND sender = ? AND client_token = ?",
                    arguments: [message.conversationID, message.from, message.clientToken]
                )
                return stored.map(RowMapping.message) ?? message
            }
            let seq = db.lastInsertedRowID
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
            try db.executeCached(
                sql: "UPDATE conversation SET last_message_at = ? WHERE id = ?",
                arguments: [message.timestamp, message.conversationID]
            )
            var stored = message
            stored.seq = seq
            return stored
        }
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

    public func keepNotice(_ command: [UInt8], for clientIDs: [String], at time: Int64) async throws {
        guard !clientIDs.isEmpty else { return }
        try await writer.write { db in
            for clientID in clientIDs {
                try db.executeCached(
                    sql: "INSERT INTO notice (client_id, created_at, command) VALUES (?, ?, ?)",
                    arguments: [clientID, time, Data(command)]
                )
            }
        }
    }

    public func notices(for clientID: String, since time: Int64, limit: Int) async throws -> [[UInt8]] {
        try await read { db in
            try Data.fetchAll(
                db, sql: "SELECT command FROM notice WHERE client_id = ? AND created_at >= ? ORDER BY seq LIMIT ?",
                arguments: [clientID, time, limit]
            ).map { Array($0) }
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

    public func registerDevice(clientID: String, token: String, deviceID: String?) async throws {
        try await writer.write { db in
            try db.executeCached(
                sql: """
                    INSERT INTO device (client_id, token, device_id, registered_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT DO UPDATE SET device_id = excluded.device_id, registered_at = excluded.registered_at
                    """,
                arguments: [clientID, token, deviceID, Int64(Date().timeIntervalSince1970 * 1000)]
            )
        }
    }

    public func pushDevices(of clientIDs: [String]) async throws -> [String: [PushDevice]] {
        guard !clientIDs.isEmpty else { return [:] }
        return try await read { db in
            let placeholders = Self.placeholders(clientIDs.count)
            // A device with an installation goes by the installation's type and vendor
            // (`PushDeviceColumns`).
            let vendor = PushDeviceColumns.vendor
            let vendorToken = PushDeviceColumns.vendorToken
            return try Row.fetchAll(
                db, cachedSQL: """
                    SELECT client_id, token, device_type, vendor, profile FROM (
                        SELECT d.client_id, coalesce(\(vendorToken), d.token) AS token, i.device_type, \(vendor) AS vendor,
                            i.device_profile AS profile, d.registered_at AS at
                        FROM device d LEFT JOIN installation i ON i.device_token = d.token OR i.installation_id = d.token
                        WHERE d.client_id IN \(placeholders)
                        UNION ALL
                        SELECT c.channel, coalesce(\(vendorToken), i.device_token, i.registration_id, i.installation_id), i.device_type, \(vendor),
                            i.device_profile, i.updated_at
                        FROM installation_channel c JOIN installation i USING (object_id) WHERE c.channel IN \(placeholders)
                    ) ORDER BY at
                    """,
                arguments: Self.padded(clientIDs) + Self.padded(clientIDs)
            ).reduce(into: [:]) { devices, row in
                let clientID: String = row["client_id"]
                let device = PushDevice(token: row["token"], deviceType: row["device_type"], vendor: row["vendor"], profile: row["profile"])
                if devices[clientID]?.contains(where: { $0.token == device.token }) != true { devices[clientID, default: []].append(device) }
            }
        }
    }

    public func saveInstallation(_ installation: Installation) async throws -> (objectID: String, created: Bool, at: Int64) {
        let now = ServerClock.wallMilliseconds()
        return try await writer.write { db in
            let existing = try String.fetchOne(
                db, sql: "SELECT object_id FROM installation WHERE device_token = ? OR installation_id = ?",
                arguments: [installation.deviceToken, installation.installationID]
            )
            let objectID = existing ?? Identifiers.objectID()
            try db.execute(
                sql: """
                    INSERT INTO installation (object_id, device_type, device_token, installation_id, registration_id, vendor, device_profile, created_at, updated_at)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?8, ?7, ?7)
                    ON CONFLICT (object_id) DO UPDATE SET device_type = ?2, device_token = ?3, installation_id = ?4,
                        registration_id = coalesce(?5, registration_id), vendor = coalesce(?6, vendor),
                        device_profile = coalesce(?8, device_profile), updated_at = ?7
                    """,
                arguments: [
                    objectID, installation.deviceType.rawValue, installation.deviceToken, installation.installationID,
                    installation.registrationID, installation.vendor, now, installation.deviceProfile,
                ]
            )
            try Self.change(channels: .add(installation.channels), of: objectID, db)
            return (objectID, existing == nil, now)
        }
    }

    public func updateInstallation(objectID: String, _ change: InstallationChange) async throws -> Int64? {
        let now = ServerClock.wallMilliseconds()
        return try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE installation SET device_token = coalesce(?, device_token), registration_id = coalesce(?, registration_id),
                        vendor = coalesce(?, vendor), device_profile = coalesce(?, device_profile),
                        badge = coalesce(?, badge), updated_at = ? WHERE object_id = ?
                    """,
                arguments: [change.deviceToken, change.registrationID, change.vendor, change.deviceProfile, change.badge, now, objectID]
            )
            guard db.changesCount > 0 else { return nil }
            if let channels = change.channels { try Self.change(channels: channels, of: objectID, db) }
            return now
        }
    }

    public func installation(objectID: String) async throws -> SavedInstallation? {
        try await read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM installation WHERE object_id = ?", arguments: [objectID]) else { return nil }
            let channels = try String.fetchAll(
                db, sql: "SELECT channel FROM installation_channel WHERE object_id = ? ORDER BY channel", arguments: [objectID]
            )
            return RowMapping.installation(row, channels: channels)
        }
    }

    public func installations(after objectID: String?, limit: Int) async throws -> [SavedInstallation] {
        let limit = min(max(limit, 0), Self.maxListLength)
        return try await read { db in
            let rows = try Row.fetchAll(
                db, cachedSQL: "SELECT * FROM installation WHERE object_id > ? ORDER BY object_id LIMIT ?", arguments: [objectID ?? "", limit]
            )
            guard !rows.isEmpty else { return [] }
            var channels: [String: [String]] = [:]
            for row in try Row.fetchAll(
                db, cachedSQL: "SELECT object_id, channel FROM installation_channel WHERE object_id IN \(Self.placeholders(rows.count)) ORDER BY channel",
                arguments: Self.padded(rows.map { $0["object_id"] as String })
            ) {
                channels[row["object_id"], default: []].append(row["channel"])
            }
            return rows.compactMap { RowMapping.installation($0, channels: channels[$0["object_id"]] ?? []) }
        }
    }

    public func deleteInstallation(objectID: String) async throws -> Bool {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM installation WHERE object_id = ?", arguments: [objectID])
            return db.changesCount > 0
        }
    }

    static func change(channels change: Installation.ChannelChange, of objectID: String, _ db: Database) throws {
        if case .set = change {
            try db.execute(sql: "DELETE FROM installation_channel WHERE object_id = ?", arguments: [objectID])
        }
        let (channels, sql) = switch change {
        case .set(let channels), .add(let channels):
            (channels, "INSERT OR IGNORE INTO installation_channel (channel, object_id) VALUES (?, ?)")
        case .remove(let channels):
            (channels, "DELETE FROM installation_channel WHERE channel = ? AND object_id = ?")
        }
        for channel in Set(channels) {
            try db.execute(sql: sql, arguments: [channel, objectID])
        }
    }

    public func countBadges(tokens: [String]) async throws -> [String: Int] {
        guard !tokens.isEmpty else { return [:] }
        return try await writer.write { db in
            try Set(tokens).reduce(into: [:]) { counts, token in
                let badges = try Int.fetchAll(db, sql: "UPDATE device SET badge = badge + 1 WHERE token = ? RETURNING badge", arguments: [token])
                    + Int.fetchAll(db, sql: "UPDATE installation SET badge = badge + 1 WHERE device_token = ? RETURNING badge", arguments: [token])
                counts[token] = badges.max() ?? 1
            }
        }
    }

    public func clearBadges(of clientID: String) async throws {
        try await writer.write { db in
            try db.executeCached(sql: "UPDATE device SET badge = 0 WHERE client_id = ? AND badge != 0", arguments: [clientID])
            try db.executeCached(
                sql: """
                    UPDATE installation SET badge = 0 WHERE badge != 0
                        AND (object_id IN (SELECT object_id FROM installation_channel WHERE channel = ?)
                            OR device_token IN (SELECT token FROM device WHERE client_id = ?))
                    """,
                arguments: [clientID, clientID]
            )
        }
    }

    public func removeDevice(token: String) async throws {
        try await writer.write { db in
            try db.executeCached(sql: "DELETE FROM device WHERE token = ?", arguments: [token])
            try db.executeCached(sql: "DELETE FROM installation WHERE device_token = ? OR registration_id = ?", arguments: [token, token])
        }
    }

    public func clientsWithDevices(after clientID: String, limit: Int) async throws -> [String] {
        try await read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT client_id FROM device WHERE client_id > ? ORDER BY client_id LIMIT ?", arguments: [clientID, limit])
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

    // MARK: Helpers

    /// The messages a client may see, given the client's id twice: every member sees a
    /// message to everyone; one to chosen members is theirs and the sender's.
    private static let visibleToClient = """
        (message.audience IS NULL OR message.sender = ? OR EXISTS (SELECT 1 FROM json_each(message.audience) WHERE json_each.value = ?))
        """

    /// Every read goes through here. GRDB's `read` has a blocking overload that Swift picks
    /// when the closure's result is not `Sendable` (rows, say), even under `await`: it parks
    /// a cooperative thread on the reader pool, and a few at once hung the server. This one
    /// is only ever the suspending kind.
    private func read<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws -> Value {
        try await pool.read(body)
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
                sql: "INSERT OR IGNORE INTO conversation_member (conversation_id, client_id, position, joined_at) VALUES (?, ?, ?, ?)",
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

    /// A list of `count` placeholders or more: lists are padded to a power of two (with
    /// NULLs, which `IN` never matches), so each statement is compiled and kept in the cache
    /// for a few lengths, not one per length a client can make up.
    static func placeholders(_ count: Int) -> String {
        "(" + Array(repeating: "?", count: listLength(count)).joined(separator: ",") + ")"
    }

    static func padded(_ values: [some DatabaseValueConvertible]) -> StatementArguments {
        // As optional existentials: GRDB's initializer for a sequence of one type builds a key
        // path at run time on every call, a few per cent of a message's CPU time.
        var list = values.map { $0 as (any DatabaseValueConvertible)? }
        list += repeatElement(nil, count: listLength(values.count) - values.count)
        return StatementArguments(list)
    }

    /// Lists longer than this are split by the caller: well below SQLite's limit on
    /// placeholders (32,766) even once padded.
    static let maxListLength = 1024

    private static func listLength(_ count: Int) -> Int {
        count <= 1 ? 1 : 1 << (Int.bitWidth - (count - 1).leadingZeroBitCount)
    }
}
