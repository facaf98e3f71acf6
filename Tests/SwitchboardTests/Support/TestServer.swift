import Foundation
import Logging
import ServiceLifecycle
import SwitchboardCore
import SwitchboardData
import SwitchboardHooks
import SwitchboardJS
import SwitchboardServer
import SwitchboardWire

/// A real server on a free loopback port with its own SQLite file (or PostgreSQL database,
/// see `TestDatabase`), for one test.
final class TestServer: Sendable {
    let port: Int
    let config: ServerConfig
    /// The running server's hook scripts.
    let scripts: ScriptLibrary
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    /// Starts a server; `configure` adjusts the config (data directory and port are set already).
    static func start(
        dataDirectory: String? = nil, plugins: [any SwitchboardPlugin] = [], push: (any PushGateway)? = nil,
        clock: any WallClock = SystemWallClock(), scripts: [String: String] = [:], _ configure: (inout ServerConfig) -> Void = { _ in }
    ) async throws -> TestServer {
        var config = ServerConfig()
        config.port = 0
        config.dataDirectory = dataDirectory ?? Self.temporaryDirectory()
        // Scripts only when a test puts them there.
        config.hooksDirectory = config.dataDirectory + "/hooks"
        // The keyword filter only when a test asks for it.
        config.keywordFilter = nil
        config.postgresURL = try await TestDatabase.url(for: config.dataDirectory)
        // Hundreds of test servers share one PostgreSQL: a few connections each.
        config.postgresMaxConnections = 3
        configure(&config)
        // Paths may name files inside project folders: `myapp/cloud.js`.
        for (path, source) in scripts {
            let url = URL(fileURLWithPath: config.hooksDirectory + "/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try source.write(to: url, atomically: true, encoding: .utf8)
        }
        var logger = Logger(label: "switchboard-test")
        logger.logLevel = ProcessInfo.processInfo.environment["SWITCHBOARD_TEST_LOG"].flatMap(Logger.Level.init(rawValue:)) ?? .critical
        // A registry of its own: tests run many servers in one process and read each one's series.
        let application = try await SwitchboardApplication(config: config, logger: logger, plugins: plugins, push: push, metrics: PrometheusMetrics(), clock: clock)
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let group = try await application.serviceGroup { port in portContinuation.yield(port) }
        let running = Task { try await group.run() }
        for await port in ports {
            return TestServer(port: port, config: config, scripts: application.scripts, group: group, running: running)
        }
        throw TestClient.Timeout(description: "server did not start")
    }

    private init(port: Int, config: ServerConfig, scripts: ScriptLibrary, group: ServiceGroup, running: Task<Void, any Error>) {
        self.port = port
        self.config = config
        self.scripts = scripts
        self.group = group
        self.running = running
    }

    /// Writes a hook script into the server's hooks folder (which the server watches).
    func writeScript(_ name: String, _ source: String) throws {
        try FileManager.default.createDirectory(atPath: config.hooksDirectory, withIntermediateDirectories: true)
        try source.write(toFile: config.hooksDirectory + "/" + name, atomically: true, encoding: .utf8)
    }

    static func temporaryDirectory() -> String {
        let path = testsDirectory + "/\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Where this test process keeps its folders, removed when it exits; a run that did not
    /// get to exit (killed, crashed) has its folder removed by the next run.
    private static let testsDirectory: String = {
        let temporary = FileManager.default.temporaryDirectory.path
        let prefix = "switchboard-tests-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? [] where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(atPath: temporary + "/" + name)
        }
        atexit { try? FileManager.default.removeItem(atPath: TestServer.testsDirectory) }
        return temporary + "/" + prefix + String(getpid())
    }()

    func connect(_ subprotocol: Subprotocol = .protobuf1) async throws -> TestClient {
        try await TestClient.connect(port: port, subprotocol: subprotocol)
    }

    /// Opens a connection and logs `clientID` in on it; on `lc.protobuf2.3` it is told at
    /// login what it missed as unread counts.
    func login(_ clientID: String, tag: String? = nil, subprotocol: Subprotocol = .protobuf1) async throws -> TestClient {
        try await TestClient.login(clientID, port: port, appID: config.appID, tag: tag, subprotocol: subprotocol)
    }

    /// Stops gracefully, as SIGTERM would.
    func stop() async throws {
        await group.triggerGracefulShutdown()
        try await running.value
    }
}

