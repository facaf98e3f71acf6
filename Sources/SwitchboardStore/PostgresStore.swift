import Foundation
import Logging
import PostgresNIO
import SwitchboardCore
import SwitchboardData

/// `MessageStore` over PostgreSQL, for several Switchboard nodes sharing one database
/// (`storage.postgres.url`). The same tables as `SQLiteStore`; nothing is cached in the
/// process, since another node may change any row.
public final class PostgresStore: MessageStore, Sendable {
    // `Sendable` is stated here: the roles, each conformed to in a file of its own, would
    // otherwise imply it there, and Swift takes a class's `Sendable` only in its own file.

    let client: PostgresClient
    let logger: Logger
    private let running: Task<Void, Never>

    /// Connects to the database at `url` and brings its schema up to date; the client's
    /// connections, at most `maxConnections`, live until `close()`.
    public init(url: String, maxConnections: Int = 20, logger: Logger) async throws {
        var configuration = try PostgresConnectionSettings.configuration(url: url)
        configuration.options.maximumConnections = max(maxConnections, 1)
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.logger = logger
        running = await client.runInBackground()
        do {
            try await migrate()
        } catch {
            running.cancel()
            throw error
        }
    }

    /// Throws, saying what is wrong, unless `url` names a database this store can reach
    /// (checked when the config is read, before anything connects).
    public static func checkURL(_ url: String) throws {
        _ = try PostgresConnectionSettings.configuration(url: url)
    }

    /// The database `url` names, for the log: `user@host:port/database`, no password.
    public static func location(of url: String) throws -> String {
        try PostgresConnectionSettings.location(url: url)
    }

    /// Closes the connections, and returns once they are closed.
    public func close() async {
        running.cancel()
        await running.value
    }

    /// Applies the migrations not yet applied, under a lock so that nodes starting together
    /// take turns.
    private func migrate() async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(7306458)", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS switchboard_migration (name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)", logger: logger
            )
            let applied = Set(try await connection.all("SELECT name FROM switchboard_migration", logger).compactMap { $0.string("name") })
            for migration in PostgresSchema.migrations where !applied.contains(migration.name) {
                for statement in migration.sql {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(
                    "INSERT INTO switchboard_migration (name, applied_at) VALUES (\(migration.name), \(SystemWallClock().now()))", logger: logger
                )
            }
        }
    }

    // MARK: Helpers

    func all(_ query: PostgresQuery) async throws -> [PostgresRandomAccessRow] {
        try await client.withConnection { try await $0.all(query, logger) }
    }

    func run(_ query: PostgresQuery) async throws {
        try await client.query(query, logger: logger)
    }

    /// Runs `body` in a transaction; what `body` throws comes out as it was thrown (a
    /// `StorageError` keeps its code) once the transaction is rolled back, where PostgresNIO
    /// would wrap it.
    func transaction<Result: Sendable>(_ body: (PostgresConnection) async throws -> sending Result) async throws -> Result {
        do {
            return try await client.withTransaction(logger: logger) { try await body($0) }
        } catch let error as PostgresTransactionError {
            guard let thrown = error.closureError, error.rollbackError == nil else { throw error }
            throw thrown
        }
    }
}

extension PostgresConnection {
    /// Every row of the query's answer.
    func all(_ query: PostgresQuery, _ logger: Logger) async throws -> [PostgresRandomAccessRow] {
        var rows: [PostgresRandomAccessRow] = []
        for try await row in try await self.query(query, logger: logger) {
            rows.append(row.makeRandomAccess())
        }
        return rows
    }
}
