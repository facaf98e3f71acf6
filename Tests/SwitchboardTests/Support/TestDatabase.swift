import Crypto
import Foundation
import GRDB
import Logging
import PostgresNIO
import SwitchboardCore
import SwitchboardData
import SwitchboardServer
@testable import SwitchboardStore

/// Where a test server keeps its data. With `SWITCHBOARD_TEST_POSTGRES_URL` set (see
/// `scripts/with-postgres`) every server gets a PostgreSQL database of its own, named after
/// its data folder, so that a server restarted on the same folder finds its data again;
/// otherwise the SQLite file in the folder.
enum TestDatabase {
    static let postgresURL = ProcessInfo.processInfo.environment["SWITCHBOARD_TEST_POSTGRES_URL"]

    static var usesPostgres: Bool { postgresURL != nil }

    /// The database URL for `dataDirectory`, created if it is new; nil without PostgreSQL.
    static func url(for dataDirectory: String) async throws -> String? {
        guard let base = postgresURL else { return nil }
        let name = "sb_" + SHA256.hash(data: Data(dataDirectory.utf8)).prefix(12).map { String(format: "%02x", $0) }.joined()
        let template = try await migratedTemplate.value
        try await withClient(base) { client in
            do {
                try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name) TEMPLATE \(template)"))
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42P04" {
                // It exists: a server restarted on the same folder.
            }
        }
        return url(base, database: name)
    }

    /// A new database whose text sorts by ICU's rules for `locale` rather than byte by byte, as
    /// a production database's may; nil without PostgreSQL. Its schema is made by the first
    /// store that opens it.
    static func url(sortingTextAs locale: String) async throws -> String? {
        guard let base = postgresURL else { return nil }
        let name = "sb_icu_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await withClient(base) { client in
            try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name) TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE '\(locale)'"))
        }
        return url(base, database: name)
    }

    /// A database with the schema in place, made once per test run, which new ones copy:
    /// quicker than migrating each, which loaded the machine enough to fail timing tests.
    private static let migratedTemplate = Task<String, any Error> {
        guard let base = postgresURL else { return "" }
        let name = "sb_template_\(getpid())"
        try await withClient(base) { client in
            try await client.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name)"))
            try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        }
        let store = try await PostgresStore(url: url(base, database: name), logger: Logger(label: "test-template"))
        await store.close()
        return name
    }

    private static func url(_ base: String, database: String) -> String {
        var components = URLComponents(string: base)!
        components.path = "/" + database
        return components.string!
    }

    /// The count a query (one `$1` argument) gives on the server's database.
    static func count(_ sql: String, _ argument: String, in config: ServerConfig) async throws -> Int {
        guard let url = config.postgresURL else {
            var configuration = Configuration()
            configuration.readonly = true
            let database = try DatabaseQueue(path: config.databasePath, configuration: configuration)
            return try await database.read { try Int.fetchOne($0, sql: sql, arguments: [argument]) ?? 0 }
        }
        var bindings = PostgresBindings()
        bindings.append(argument)
        let query = PostgresQuery(unsafeSQL: sql, binds: bindings)
        return try await withClient(url) { client in
            for try await count in try await client.query(query).decode(Int.self) { return count }
            return 0
        }
    }

    /// Runs `sql` on the PostgreSQL database of the server with `dataDirectory`.
    static func run(_ sql: String, onDatabaseOf dataDirectory: String) async throws {
        guard let url = try await url(for: dataDirectory) else { return }
        try await withClient(url) { client in
            try await client.query(PostgresQuery(unsafeSQL: sql))
        }
    }

    /// Runs `sql` in a transaction on the PostgreSQL database of the server with
    /// `dataDirectory`, calls `whileOpen` with it still open (its row locks held), then
    /// commits.
    static func holdingTransaction<Result: Sendable>(
        _ sql: String, onDatabaseOf dataDirectory: String, whileOpen: () async throws -> Result
    ) async throws -> Result {
        guard let url = try await url(for: dataDirectory) else { return try await whileOpen() }
        return try await withClient(url) { client in
            try await client.withConnection { connection in
                try await connection.query("BEGIN", logger: Logger(label: "test-database"))
                try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "test-database"))
                let result = try await whileOpen()
                try await connection.query("COMMIT", logger: Logger(label: "test-database"))
                return result
            }
        }
    }

    /// A store on the database a server with `dataDirectory` would use, to set data up before
    /// it starts; SQLite's even with PostgreSQL configured when `postgres` is false.
    static func withStore<Result: Sendable>(
        dataDirectory: String, postgres: Bool = usesPostgres, _ body: (any MessageStore & DocumentStore & ImportStore) async throws -> Result
    ) async throws -> Result {
        guard postgres, let url = try await url(for: dataDirectory) else {
            return try await body(try SQLiteStore(path: dataDirectory + "/switchboard.sqlite"))
        }
        let store = try await PostgresStore(url: url, maxConnections: 4, logger: Logger(label: "test-store"))
        do {
            let result = try await body(store)
            await store.close()
            return result
        } catch {
            await store.close()
            throw error
        }
    }

    private static func withClient<Result: Sendable>(_ url: String, _ body: (PostgresClient) async throws -> Result) async throws -> Result {
        let client = PostgresClient(configuration: try PostgresConnectionSettings.configuration(url: url))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await body(client)
        }
    }
}
