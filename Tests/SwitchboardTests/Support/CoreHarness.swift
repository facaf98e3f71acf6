import Logging
import Synchronization
import SwitchboardCore
import SwitchboardData
import SwitchboardHooks
import SwitchboardServer
import SwitchboardStore
import SwitchboardWire

/// A `MessagingCore` driven in-process, for tests of what the core decides: clients talk to
/// it without sockets (`CoreClient`), its time is a `TestClock` the test moves, and its store
/// is an in-memory SQLite database (or, when the tests run on PostgreSQL, a database of its
/// own there). What the transport, the REST API or script hosts do is tested on a
/// `TestServer`.
final class CoreHarness: Sendable {
    let core: MessagingCore
    let clock: TestClock
    let config: ServerConfig
    let push: RecordingPushGateway
    private let store: any MessageStore
    private let background: WorkQueue
    private let running: Task<Void, Never>
    private let nextConnection = Atomic<UInt64>(1)

    /// Starts a core; `configure` adjusts the config its settings and hooks come from.
    static func start(
        plugins: [any SwitchboardPlugin] = [], clock: TestClock = TestClock(), _ configure: (inout ServerConfig) -> Void = { _ in }
    ) async throws -> CoreHarness {
        var config = ServerConfig()
        config.keywordFilter = nil
        configure(&config)
        var logger = Logger(label: "switchboard-core-test")
        logger.logLevel = .critical
        // A folder only names the PostgreSQL database; on SQLite the store is in memory.
        let store: any MessageStore = if TestDatabase.usesPostgres, let url = try await TestDatabase.url(for: TestServer.temporaryDirectory()) {
            try await PostgresStore(url: url, maxConnections: 3, logger: logger)
        } else {
            try SQLiteStore.inMemory()
        }
        let hooks = SwitchboardApplication.makeHooks(config: config, plugins: plugins, logger: logger)
        let background = WorkQueue(name: "background", capacity: 1000, workers: 4, whenFull: .wait, metrics: .init(name: "background", in: hooks.metrics))
        let push = RecordingPushGateway()
        let core = MessagingCore(
            settings: config.coreSettings, store: store, hooks: hooks, push: push, background: background, clock: clock, logger: logger
        )
        try await core.prepare()
        return CoreHarness(core: core, clock: clock, config: config, push: push, store: store, background: background)
    }

    private init(core: MessagingCore, clock: TestClock, config: ServerConfig, push: RecordingPushGateway, store: any MessageStore, background: WorkQueue) {
        self.core = core
        self.store = store
        self.clock = clock
        self.config = config
        self.push = push
        self.background = background
        running = Task { await background.run() }
    }

    /// A new connection, with no session yet: what its clients missed is pushed at login
    /// (`lc.protobuf2.1`) unless `missedMessages` says counts (`lc.protobuf2.3`).
    func connect(missedMessages: MissedMessages = .pushed) -> CoreClient {
        CoreClient(core: core, id: nextConnection.add(1, ordering: .relaxed).oldValue, missedMessages: missedMessages)
    }

    /// Opens a connection and logs `clientID` in on it.
    func login(_ clientID: String, tag: String? = nil, missedMessages: MissedMessages = .pushed) async throws -> CoreClient {
        let client = connect(missedMessages: missedMessages)
        let reply = try await client.request(.open(clientID, appID: config.appID, tag: tag))
        guard reply.cmd == .session, reply.op == .opened else {
            throw TestClient.Timeout(description: "login of \(clientID) failed: \(reply)")
        }
        return client
    }

    /// Lets the work that follows replies (observing hooks, push decisions) finish, and
    /// closes the store.
    func stop() async {
        background.close()
        await running.value
        if let postgres = store as? PostgresStore { await postgres.close() }
    }
}
