import Foundation
import Logging
import SwitchboardData
import SwitchboardStore
import Testing

/// The stores app-data tests run `LocalAppData` over: a new SQLite file, or a new
/// PostgreSQL database when `SWITCHBOARD_TEST_POSTGRES_URL` is set (see `TestDatabase`).
enum AppDataStore: String, CustomTestStringConvertible, Sendable {
    case sqlite
    case postgres

    /// The store a run's tests use unless they ask for each: PostgreSQL when it is
    /// configured, as for `TestServer`.
    static var configured: Self { TestDatabase.usesPostgres ? .postgres : .sqlite }

    /// SQLite, and PostgreSQL when it is configured.
    static var available: [Self] { TestDatabase.usesPostgres ? [.sqlite, .postgres] : [.sqlite] }

    var testDescription: String { rawValue }

    /// Runs `body` with a new, empty store of this kind, closed afterwards.
    func with<Result: Sendable>(_ body: (any DocumentStore) async throws -> Result) async throws -> Result {
        switch self {
        case .sqlite:
            return try await body(try SQLiteStore(path: TestServer.temporaryDirectory() + "/data.sqlite"))
        case .postgres:
            let url = try #require(try await TestDatabase.url(for: "app-data-" + UUID().uuidString))
            let store = try await PostgresStore(url: url, maxConnections: 4, logger: Logger(label: "test-app-data"))
            do {
                let result = try await body(store)
                await store.close()
                return result
            } catch {
                await store.close()
                throw error
            }
        }
    }

    /// The store of the test running now, under `.appDataStore`.
    @TaskLocal static var current: (any DocumentStore)?
}

/// Gives each test of a suite a new store of the configured kind (`AppDataStore.current`),
/// closed when the test ends.
struct AppDataStoreTrait: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await AppDataStore.configured.with { store in
            try await AppDataStore.$current.withValue(store) { try await function() }
        }
    }
}

extension Trait where Self == AppDataStoreTrait {
    static var appDataStore: Self { AppDataStoreTrait() }
}
