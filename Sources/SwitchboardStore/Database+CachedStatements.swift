import GRDB

// The store runs the same few statements for every message. Compiling one costs more than
// running it (SQLite parses it and GRDB's authorizer walks it), so each connection keeps
// them compiled, keyed by their text. A statement with a list of placeholders is kept once
// per padded list length (powers of two, see `SQLiteStore.placeholders`).

extension Database {
    func executeCached(sql: String, arguments: StatementArguments = StatementArguments()) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}

extension Row {
    static func fetchAll(_ db: Database, cachedSQL sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Row] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    static func fetchOne(_ db: Database, cachedSQL sql: String, arguments: StatementArguments = StatementArguments()) throws -> Row? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }
}
