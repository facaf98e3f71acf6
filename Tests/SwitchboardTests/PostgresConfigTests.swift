import Foundation
import SwitchboardServer
import Testing

/// `storage.postgres`: which database, how many connections, how often the node beats; bad
/// values stop the start.
@Suite struct PostgresConfigTests {
    @Test func theDatabaseIsNamedByAURL() throws {
        let file = TestServer.temporaryDirectory() + "/switchboard.yaml"
        try "storage:\n  postgres:\n    url: postgres://switchboard:s3cret@db.internal:5433/chat?sslmode=require\n    maxConnections: 5\n    heartbeatSeconds: 2\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let config = try ServerConfig.load(path: file)
        #expect(config.postgresURL == "postgres://switchboard:s3cret@db.internal:5433/chat?sslmode=require")
        #expect(config.postgresMaxConnections == 5)
        #expect(config.nodeHeartbeatSeconds == 2)
        for bad in ["url: mysql://db/chat", "maxConnections: 3", "url: postgres://u@db/chat\n    maxConnections: 0", "url: postgres://db/chat",
                    "url: postgres://u@db/chat\n    heartbeatSeconds: 0"] {
            try "storage:\n  postgres:\n    \(bad)\n".write(toFile: file, atomically: true, encoding: .utf8)
            #expect(throws: ConfigError.self, "\(bad)") { try ServerConfig.load(path: file) }
        }
    }

    /// The start names the database in use, without its password, and nothing else:
    /// PostgreSQL's client is running before the first query (PostgresNIO warns otherwise).
    @Test func theLogNamesTheDatabaseInUse() async throws {
        let server = try await ServerProcess.start(dataDirectory: TestServer.temporaryDirectory())
        let log = try String(contentsOfFile: server.log, encoding: .utf8)
        _ = try await server.terminate()
        if TestDatabase.usesPostgres {
            #expect(log.contains("postgresql=postgres@127.0.0.1:"))
            #expect(!log.contains("sqlite"), "\(log)")
            #expect(!log.contains("hasn't been called yet"), "\(log)")
        } else {
            #expect(log.contains("sqlite=\(server.dataDirectory)/switchboard.sqlite"), "\(log)")
        }
    }

    /// A URL without a user reaches the store, which says what is wrong before connecting.
    @Test func aURLWithoutAUserIsRefusedAtStart() async throws {
        await #expect(throws: (any Error).self) {
            try await TestServer.start { $0.postgresURL = "postgres://127.0.0.1:1/chat" }
        }
    }
}
