import GRDB
import SwitchboardData
import SwitchboardJSON

/// App data (`DocumentStore`) in the same SQLite file: `storage_object` holds each
/// document's fields as JSON text, `storage_key` its `IndexEntries`. Writes go through
/// the batched writer, so a read-modify-write runs inside one transaction.
extension SQLiteStore: DocumentStore {
    public func insert(_ documents: [StoredDocument]) async throws {
        guard !documents.isEmpty else { return }
        try await writer.write { db in
            for document in documents {
                do {
                    try Self.insertObject(document, db)
                } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
                    throw StorageError.duplicateID(document.className, id: document.objectID)
                }
                try Self.insertEntries(IndexEntries.of(document.fields), of: document, db)
            }
        }
    }

    public func importDocuments(_ documents: [StoredDocument]) async throws -> ImportOutcome {
        guard !documents.isEmpty else { return ImportOutcome() }
        return try await writer.write { db in
            var outcome = ImportOutcome()
            for document in documents {
                guard let row = try Row.fetchOne(
                    db, cachedSQL: "SELECT * FROM storage_object WHERE class_name = ? AND object_id = ?", arguments: [document.className, document.objectID]
                ) else {
                    try Self.insertObject(document, db)
                    try Self.insertEntries(IndexEntries.of(document.fields), of: document, db)
                    outcome.stored += 1
                    continue
                }
                let stored = try RowMapping.document(row)
                guard stored.updatedAt < document.updatedAt else {
                    outcome.alreadyThere += 1
                    continue
                }
                try db.executeCached(
                    sql: "UPDATE storage_object SET updated_at = ?, data = ? WHERE class_name = ? AND object_id = ?",
                    arguments: [document.updatedAt, JSONValue.object(document.fields).jsonString, document.className, document.objectID]
                )
                let before = IndexEntries.of(stored.fields), after = IndexEntries.of(document.fields)
                try Self.deleteEntries(before.subtracting(after), of: document, db)
                try Self.insertEntries(after.subtracting(before), of: document, db)
                outcome.stored += 1
                outcome.replaced += 1
            }
            return outcome
        }
    }

    private static func insertObject(_ document: StoredDocument, _ db: Database) throws {
        try db.executeCached(
            sql: "INSERT INTO storage_object (class_name, object_id, created_at, updated_at, data) VALUES (?, ?, ?, ?, ?)",
            arguments: [document.className, document.objectID, document.createdAt, document.updatedAt, JSONValue.object(document.fields).jsonString]
        )
    }

    public func classNames() async throws -> [String] {
        try await database.read { db in
            try String.fetchAll(db, sql: DocumentStoreSQL.classNames)
        }
    }

    public func documents(in className: String, ids: [String]) async throws -> [StoredDocument] {
        guard !ids.isEmpty else { return [] }
        return try await database.read { db in
            var found: [StoredDocument] = []
            for chunk in Self.listChunks(ids) {
                found += try Row.fetchAll(
                    db, cachedSQL: "SELECT * FROM storage_object WHERE class_name = ? AND object_id IN \(Self.placeholders(chunk.count))",
                    arguments: [className] + Self.padded(chunk)
                ).map(RowMapping.document)
            }
            return found
        }
    }

    public func documents(in className: String, field: String, indexKeys keys: [String], afterID: String?, limit: Int) async throws -> [StoredDocument] {
        try await database.read { db in
            // Each key's ids come in order from the primary key; merged, the first `limit`.
            var ids = Set<String>()
            for key in Set(keys) {
                ids.formUnion(try String.fetchAll(
                    db.cachedStatement(sql: """
                        SELECT object_id FROM storage_key WHERE class_name = ? AND field = ? AND key = ? AND object_id > ?
                        ORDER BY object_id LIMIT ?
                        """),
                    arguments: [className, field, key, afterID ?? "", limit]
                ))
            }
            let page = ids.sorted().prefix(limit)
            guard !page.isEmpty else { return [] }
            return try Row.fetchAll(
                db,
                cachedSQL: "SELECT * FROM storage_object WHERE class_name = ? AND object_id IN \(Self.placeholders(page.count)) ORDER BY object_id",
                arguments: [className] + Self.padded(Array(page))
            ).map(RowMapping.document)
        }
    }

    public func documents(in className: String, order: DocumentOrder, after position: DocumentOrder.Position?, limit: Int) async throws -> [StoredDocument] {
        let direction = order.ascending ? "" : " DESC"
        let comparison = order.ascending ? ">" : "<"
        let sql: String
        var arguments: StatementArguments = [className]
        switch (order.column, position) {
        case (.objectID, nil):
            sql = "SELECT * FROM storage_object WHERE class_name = ? ORDER BY object_id\(direction) LIMIT ?"
        case (.objectID, let position?):
            sql = "SELECT * FROM storage_object WHERE class_name = ? AND object_id \(comparison) ? ORDER BY object_id\(direction) LIMIT ?"
            arguments += [position.objectID]
        case (let column, nil):
            let name = column == .createdAt ? "created_at" : "updated_at"
            sql = "SELECT * FROM storage_object WHERE class_name = ? ORDER BY \(name)\(direction), object_id\(direction) LIMIT ?"
        case (let column, let position?):
            let name = column == .createdAt ? "created_at" : "updated_at"
            sql = """
                SELECT * FROM storage_object WHERE class_name = ? AND (\(name), object_id) \(comparison) (?, ?)
                ORDER BY \(name)\(direction), object_id\(direction) LIMIT ?
                """
            arguments += [position.time, position.objectID]
        }
        arguments += [limit]
        let bound = arguments
        return try await database.read { db in
            try Row.fetchAll(db, cachedSQL: sql, arguments: bound).map(RowMapping.document)
        }
    }

    public func update(in className: String, id: String, _ change: @escaping @Sendable (StoredDocument) throws -> StoredDocument) async throws -> StoredDocument? {
        try await writer.write { db in
            guard let row = try Row.fetchOne(db, cachedSQL: "SELECT * FROM storage_object WHERE class_name = ? AND object_id = ?", arguments: [className, id]) else {
                return nil
            }
            let current = try RowMapping.document(row)
            let changed = try change(current)
            try db.executeCached(
                sql: "UPDATE storage_object SET updated_at = ?, data = ? WHERE class_name = ? AND object_id = ?",
                arguments: [changed.updatedAt, JSONValue.object(changed.fields).jsonString, className, id]
            )
            let before = IndexEntries.of(current.fields)
            let after = IndexEntries.of(changed.fields)
            try Self.deleteEntries(before.subtracting(after), of: current, db)
            try Self.insertEntries(after.subtracting(before), of: current, db)
            return changed
        }
    }

    public func delete(in className: String, id: String, check: @escaping @Sendable (StoredDocument) throws -> Void) async throws -> Bool {
        try await writer.write { db in
            guard let row = try Row.fetchOne(db, cachedSQL: "SELECT * FROM storage_object WHERE class_name = ? AND object_id = ?", arguments: [className, id]) else {
                return false
            }
            let current = try RowMapping.document(row)
            try check(current)
            try db.executeCached(sql: "DELETE FROM storage_object WHERE class_name = ? AND object_id = ?", arguments: [className, id])
            try Self.deleteEntries(IndexEntries.of(current.fields), of: current, db)
            return true
        }
    }

    private static func insertEntries(_ entries: Set<IndexEntries.Entry>, of document: StoredDocument, _ db: Database) throws {
        for entry in entries {
            try db.executeCached(
                sql: "INSERT OR IGNORE INTO storage_key (class_name, field, key, object_id) VALUES (?, ?, ?, ?)",
                arguments: [document.className, entry.field, entry.key, document.objectID]
            )
        }
    }

    private static func deleteEntries(_ entries: Set<IndexEntries.Entry>, of document: StoredDocument, _ db: Database) throws {
        for entry in entries {
            try db.executeCached(
                sql: "DELETE FROM storage_key WHERE class_name = ? AND field = ? AND key = ? AND object_id = ?",
                arguments: [document.className, entry.field, entry.key, document.objectID]
            )
        }
    }
}
