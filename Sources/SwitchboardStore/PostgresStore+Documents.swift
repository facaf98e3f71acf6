import Foundation
import Logging
import PostgresNIO
import SwitchboardData
import SwitchboardJSON

/// App data in PostgreSQL, where every node reads and writes the same documents: a
/// document is a `storage_object` row (its fields as JSON text) with its `IndexEntries` as
/// `storage_key` rows. A change reads its row `FOR UPDATE`, so read-modify-writes of one
/// document take turns, on one node or several.
extension PostgresStore: DocumentStore {
    public func insert(_ documents: [StoredDocument]) async throws {
        guard !documents.isEmpty else { return }
        try await transaction { connection in
            let inserted = try await insertFresh(documents, connection)
            // An id taken already, or twice among these: the transaction rolls back what went in.
            if let taken = zip(documents, inserted).first(where: { !$0.1 })?.0 {
                throw StorageError.duplicateID(taken.className, id: taken.objectID)
            }
        }
    }

    public func importDocuments(_ documents: [StoredDocument]) async throws -> ImportOutcome {
        var outcome = ImportOutcome()
        // Of one id given twice, the newer: one statement changes a row only once.
        var newest: [[String]: Int] = [:]
        for (index, document) in documents.enumerated() {
            let key = [document.className, document.objectID]
            if let seen = newest[key] {
                outcome.alreadyThere += 1
                if documents[seen].updatedAt < document.updatedAt { newest[key] = index }
            } else {
                newest[key] = index
            }
        }
        let batch = newest.values.sorted().map { documents[$0] }
        guard !batch.isEmpty else { return outcome }
        return try await transaction { connection in
            let stored = try await connection.all(
                """
                SELECT storage_object.* FROM storage_object
                JOIN unnest(\(batch.map(\.className))::text[], \(batch.map(\.objectID))::text[]) AS wanted(class_name, object_id)
                    USING (class_name, object_id)
                FOR UPDATE OF storage_object
                """,
                logger
            ).map(RowMapping.document)
            let current = Dictionary(stored.map { ([$0.className, $0.objectID], $0) }, uniquingKeysWith: { first, _ in first })
            let fresh = batch.filter { current[[$0.className, $0.objectID]] == nil }
            let newer = batch.compactMap { document in
                current[[document.className, document.objectID]].flatMap { $0.updatedAt < document.updatedAt ? ($0, document) : nil }
            }
            let inserted = try await insertFresh(fresh, connection).filter { $0 }.count
            if !newer.isEmpty {
                let replacing = newer.map(\.1)
                try await connection.query(
                    """
                    UPDATE storage_object SET updated_at = new.updated_at, data = new.data
                    FROM unnest(\(replacing.map(\.className))::text[], \(replacing.map(\.objectID))::text[],
                        \(replacing.map(\.updatedAt))::bigint[], \(replacing.map { RowMapping.json($0.fields) })::text[])
                        AS new(class_name, object_id, updated_at, data)
                    WHERE storage_object.class_name = new.class_name AND storage_object.object_id = new.object_id
                    """,
                    logger: logger
                )
                var added: [(className: String, objectID: String, entry: IndexEntries.Entry)] = []
                for (before, after) in newer {
                    let old = IndexEntries.of(before.fields), new = IndexEntries.of(after.fields)
                    try await removeEntries(old.subtracting(new), in: after.className, id: after.objectID, connection)
                    added += new.subtracting(old).map { (after.className, after.objectID, $0) }
                }
                try await addEntries(added, connection)
            }
            outcome.stored += inserted + newer.count
            outcome.replaced += newer.count
            outcome.alreadyThere += batch.count - inserted - newer.count
            return outcome
        }
    }

    /// Inserts the documents whose ids are free, with their index entries, and tells of
    /// each whether it went in.
    private func insertFresh(_ documents: [StoredDocument], _ connection: PostgresConnection) async throws -> [Bool] {
        guard !documents.isEmpty else { return [] }
        let inserted = try await connection.all(
            """
            INSERT INTO storage_object (class_name, object_id, created_at, updated_at, data)
            SELECT * FROM unnest(\(documents.map(\.className))::text[], \(documents.map(\.objectID))::text[],
                \(documents.map(\.createdAt))::bigint[], \(documents.map(\.updatedAt))::bigint[],
                \(documents.map { RowMapping.json($0.fields) })::text[])
            ON CONFLICT DO NOTHING RETURNING class_name, object_id
            """,
            logger
        )
        var fresh = Set(inserted.map { [$0.string("class_name") ?? "", $0.string("object_id") ?? ""] })
        let wentIn = documents.map { fresh.remove([$0.className, $0.objectID]) != nil }
        let stored = zip(documents, wentIn).filter(\.1).map(\.0)
        try await addEntries(stored.flatMap { document in IndexEntries.of(document.fields).map { (document.className, document.objectID, $0) } }, connection)
        return wentIn
    }

    public func documents(in className: String, ids: [String]) async throws -> [StoredDocument] {
        guard !ids.isEmpty else { return [] }
        return try await all(
            "SELECT * FROM storage_object WHERE class_name = \(className) AND object_id = ANY(\(ids.map(Self.storable)))"
        ).map(RowMapping.document)
    }

    public func documents(in className: String, field: String, indexKeys keys: [String], afterID: String?, limit: Int) async throws -> [StoredDocument] {
        guard !keys.isEmpty, limit > 0 else { return [] }
        // Each key's first `limit` ids past `afterID`, read in index order, hold the first
        // `limit` of all keys together: a page reads no more than that, however many
        // documents a key has.
        return try await all(
            """
            SELECT * FROM storage_object WHERE class_name = \(className) AND object_id IN (
                SELECT entry.object_id FROM unnest(\(keys.map(Self.storable))::text[]) AS wanted(key)
                CROSS JOIN LATERAL (
                    SELECT object_id FROM storage_key
                    WHERE class_name = \(className) AND field = \(Self.storable(field)) AND key = wanted.key AND object_id > \(afterID ?? "")
                    ORDER BY object_id LIMIT \(limit)
                ) AS entry
            )
            ORDER BY object_id LIMIT \(limit)
            """
        ).map(RowMapping.document)
    }

    public func documents(in className: String, order: DocumentOrder, after position: DocumentOrder.Position?, limit: Int) async throws -> [StoredDocument] {
        let column: String? = switch order.column {
        case .objectID: nil
        case .createdAt: "created_at"
        case .updatedAt: "updated_at"
        }
        let comparison = order.ascending ? ">" : "<", direction = order.ascending ? "ASC" : "DESC"
        var sql = PostgresQuery.StringInterpolation(literalCapacity: 160, interpolationCount: 4)
        sql.appendLiteral("SELECT * FROM storage_object WHERE class_name = ")
        sql.appendInterpolation(className)
        if let position {
            if let column {
                sql.appendLiteral(" AND (\(column), object_id) \(comparison) (")
                sql.appendInterpolation(position.time)
                sql.appendLiteral(", ")
                sql.appendInterpolation(position.objectID)
                sql.appendLiteral(")")
            } else {
                sql.appendLiteral(" AND object_id \(comparison) ")
                sql.appendInterpolation(position.objectID)
            }
        }
        let sorting = [column, "object_id"].compactMap { $0.map { "\($0) \(direction)" } }.joined(separator: ", ")
        sql.appendLiteral(" ORDER BY \(sorting) LIMIT ")
        sql.appendInterpolation(max(limit, 0))
        return try await all(PostgresQuery(stringInterpolation: sql)).map(RowMapping.document)
    }

    public func classNames() async throws -> [String] {
        try await all(PostgresQuery(unsafeSQL: DocumentStoreSQL.classNames)).compactMap { $0.string("name") }
    }

    public func update(in className: String, id: String, _ change: @escaping @Sendable (StoredDocument) throws -> StoredDocument) async throws -> StoredDocument? {
        try await transaction { connection in
            guard let stored = try await Self.lockedDocument(in: className, id: id, connection, logger) else { return nil }
            let changed = try change(stored)
            // The class, id and creation time stay what they were, whatever `change` made of them.
            let updated = StoredDocument(
                className: className, objectID: id, createdAt: stored.createdAt, updatedAt: changed.updatedAt, fields: changed.fields
            )
            try await connection.query(
                """
                UPDATE storage_object SET updated_at = \(updated.updatedAt), data = \(RowMapping.json(updated.fields))
                WHERE class_name = \(className) AND object_id = \(id)
                """,
                logger: logger
            )
            let before = IndexEntries.of(stored.fields), after = IndexEntries.of(updated.fields)
            try await removeEntries(before.subtracting(after), in: className, id: id, connection)
            try await addEntries(after.subtracting(before).map { (className, id, $0) }, connection)
            return updated
        }
    }

    public func delete(in className: String, id: String, check: @escaping @Sendable (StoredDocument) throws -> Void) async throws -> Bool {
        try await transaction { connection in
            guard let stored = try await Self.lockedDocument(in: className, id: id, connection, logger) else { return false }
            try check(stored)
            try await connection.query("DELETE FROM storage_object WHERE class_name = \(className) AND object_id = \(id)", logger: logger)
            try await removeEntries(IndexEntries.of(stored.fields), in: className, id: id, connection)
            return true
        }
    }

    /// The document, its row locked until the transaction ends.
    private static func lockedDocument(in className: String, id: String, _ connection: PostgresConnection, _ logger: Logger) async throws -> StoredDocument? {
        try await connection.all(
            "SELECT * FROM storage_object WHERE class_name = \(className) AND object_id = \(id) FOR UPDATE", logger
        ).first.map(RowMapping.document)
    }

    private func addEntries(_ entries: [(className: String, objectID: String, entry: IndexEntries.Entry)], _ connection: PostgresConnection) async throws {
        guard !entries.isEmpty else { return }
        try await connection.query(
            """
            INSERT INTO storage_key (class_name, field, key, object_id)
            SELECT * FROM unnest(\(entries.map(\.className))::text[], \(entries.map { Self.storable($0.entry.field) })::text[],
                \(entries.map { Self.storable($0.entry.key) })::text[], \(entries.map(\.objectID))::text[])
            ON CONFLICT DO NOTHING
            """,
            logger: logger
        )
    }

    /// Deletes entries by their whole primary key: the table has no index by object id alone.
    private func removeEntries(_ entries: Set<IndexEntries.Entry>, in className: String, id: String, _ connection: PostgresConnection) async throws {
        guard !entries.isEmpty else { return }
        try await connection.query(
            """
            DELETE FROM storage_key USING unnest(\(entries.map { Self.storable($0.field) })::text[], \(entries.map { Self.storable($0.key) })::text[])
                AS gone(field, key)
            WHERE storage_key.class_name = \(className) AND storage_key.field = gone.field AND storage_key.key = gone.key
                AND storage_key.object_id = \(id)
            """,
            logger: logger
        )
    }

    /// Text as PostgreSQL can keep it: TEXT refuses NUL, which a pointer's class or id in an
    /// index key, or a field or id named in a `where`, may hold. U+FFFD stands in for it; a
    /// key that then equals another only adds candidates, which `LocalAppData` checks
    /// against the whole `where`.
    private static func storable(_ text: String) -> String {
        text.contains("\0") ? text.replacingOccurrences(of: "\0", with: "\u{FFFD}") : text
    }
}
