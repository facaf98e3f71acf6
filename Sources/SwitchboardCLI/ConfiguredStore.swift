import Logging
import SwitchboardCore
import SwitchboardData
import SwitchboardServer
import SwitchboardStore

/// The database a config names, SQLite or PostgreSQL, for commands that work on it without
/// running the server (`hooks test --store`, `leancloud import`).
enum ConfiguredStore {
    static func open(_ config: ServerConfig, for command: String) async throws -> any DocumentStore & MessageStore & ImportStore {
        guard let url = config.postgresURL else { return try SQLiteStore(path: config.databasePath) }
        var logger = Logger(label: "switchboard." + command)
        logger.logLevel = .warning
        return try await PostgresStore(url: url, maxConnections: 2, logger: logger)
    }
}
