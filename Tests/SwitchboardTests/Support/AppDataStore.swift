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
        try await TestDatabase.withStore(dataDirectory: TestServer.temporaryDirectory(), postgres: self == .postgres) { try await body($0) }
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
