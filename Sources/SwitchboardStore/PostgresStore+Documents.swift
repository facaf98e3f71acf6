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
        _ = try await insert(documents, keepingExisting: false)
    }

    public func insertNew(_ documents: [StoredDocument]) async throws -> Int {
        try await insert(documents, keepingExisting: true)
    }

    private func insert(_ documents: [StoredDocument], keepingExisting: Bool) async throws -> Int {
        guard !documents.isEmpty else { return 0 }
        return try await transaction { connection in
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
            var stored: [StoredDocument] = []
            for document in documents {
                if fresh.remove([document.className, document.objectID]) != nil {
                    stored.append(document)
                } else if !keepingExisting {
                    // An id taken already, or twice among these: the transaction rolls back what went in.
                    throw StorageError.duplicateID(document.className, id: document.objectID)
                }
            }
            try await addEntries(stored.flatMap { document in IndexEntries.of(document.fields).map { (document.className, document.objectID, $0) } }, connection)
            return stored.count
        }
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
