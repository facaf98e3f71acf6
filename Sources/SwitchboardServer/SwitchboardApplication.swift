import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import SwitchboardCore
import SwitchboardData
import SwitchboardHooks
import SwitchboardJS
import SwitchboardStore
import UnixSignals

/// A whole Switchboard server built from a config: store, core, WebSocket gateway and the
/// services around them. `switchboard serve` runs one; a custom server executable can too.
public struct SwitchboardApplication: Sendable {
    public let config: ServerConfig
    public let logger: Logger
    /// The hook handlers, in the order they run; scripts and plugins join it.
    public let hooks: HookPipeline
    /// The JavaScript hook scripts of the hooks folder.
    public let scripts: ScriptLibrary
    /// The built-in keyword filter, when the config turns it on.
    public let keywordFilter: KeywordFilter?
    let core: MessagingCore
    let gateway: WebSocketGateway
    let store: any MessageStore
    /// The app's LeanStorage classes, in the same database as the IM store; `_Conversation`
    /// is read from the core. The REST API serves them, and scripts reach them unless
    /// `hooks.storage` names another server.
    let appData: LocalAppData
    /// What follows a reply: observing hooks, push decisions, pushes.
    let background: WorkQueue
    /// The pushes of each provider that sends over the network (webhook, APNs, FCM, each
    /// Android maker's), each in a queue of its own, so that a service that is down holds up
    /// nothing else.
    let pushQueues: [WorkQueue]
    /// The other nodes on the same PostgreSQL database.
    let nodeLink: PostgresNodeLink?
    /// Where every series of this server is kept, for `/metrics`.
    let metrics: PrometheusMetrics

    /// - Parameters:
    ///   - plugins: Swift plugins to run at the hook points, with the built-in handlers.
    ///   - push: where push decisions go; the log by default.
    ///   - metrics: the backend of the server's series; by default the process's own, which
    ///     becomes swift-metrics' backend (a process has one: servers in one process, as
    ///     tests run them, are given one each).
    ///   - clock: the time of day of messages, conversations and stored objects; the system's
    ///     by default.
    public init(
        config: ServerConfig, logger: Logger, plugins: [any SwitchboardPlugin] = [], push: (any PushGateway)? = nil,
        metrics: PrometheusMetrics = .bootstrapped, clock: any WallClock = SystemWallClock()
    ) async throws {
        self.config = config
        self.logger = logger
        self.metrics = metrics
        hooks = Self.makeHooks(config: config, plugins: plugins, metrics: HookMetrics(factory: metrics), logger: logger)
        keywordFilter = config.keywordFilter.map { KeywordFilter(settings: $0, logger: logger) }
        if let keywordFilter { hooks.register(keywordFilter) }
        if let messageTypes = config.messageTypes { hooks.register(MessageTypeValidator(settings: messageTypes)) }
        let documents: any DocumentStore
        if let url = config.postgresURL {
            let location = try PostgresStore.location(of: url)
            logger.notice("database", metadata: ["postgresql": "\(location)"])
            let postgres = try await PostgresStore(url: url, maxConnections: config.postgresMaxConnections, logger: logger)
            store = postgres
            documents = postgres
            let link = try await PostgresNodeLink(
                store: postgres, url: url, heartbeat: .seconds(config.nodeHeartbeatSeconds), counters: Self.relayCounters(hooks.metrics), logger: logger
            )
            hooks.metrics.makeGauge(
                subsystem: "cluster", name: "node", help: "This node's name among the nodes sharing the database (the value is 1).",
                labels: [("node", link.nodeID)]
            ).set(1.0)
            nodeLink = link
        } else {
            logger.notice("database", metadata: ["sqlite": "\(config.databasePath)"])
            let sqlite = try SQLiteStore(path: config.databasePath)
            store = sqlite
            documents = sqlite
            nodeLink = nil
        }
        background = WorkQueue(
            name: "background", capacity: config.backgroundQueueJobs, workers: 32, whenFull: .wait,
            metrics: .init(name: "background", in: hooks.metrics)
        )
        let pushGateway: any PushGateway
        if let push {
            pushGateway = push
            pushQueues = []
        } else {
            (pushGateway, pushQueues) = try Self.pushGateway(config: config, store: store, metrics: hooks.metrics, logger: logger)
        }
        core = MessagingCore(
            settings: config.coreSettings, store: store, hooks: hooks, push: pushGateway, background: background,
            link: nodeLink ?? SingleNode(), clock: clock, logger: logger
        )
        appData = LocalAppData(store: documents, imClasses: core.imClasses, clock: clock)
        var scriptData: any AppData = appData
        if let storage = config.hookStorage { scriptData = RemoteAppData(storage: storage, conversations: core.storedConversations) }
        scripts = ScriptLibrary(settings: config.scriptSettings, pipeline: hooks, logger: logger, services: ScriptServices(data: scriptData, http: config.scriptHTTP))
        gateway = WebSocketGateway(
            core: core,
            limits: .init(
                maxFrameBytes: config.maxFrameBytes,
                idleTimeout: .seconds(config.idleTimeoutSeconds),
                loginTimeout: .seconds(config.loginTimeoutSeconds),
                outboundQueue: config.outboundQueueCommands
            ),
            metrics: hooks.metrics,
            logger: logger
        )
    }

    /// The push provider the config names, and the queues it needs run.
    static func pushGateway(config: ServerConfig, store: any PushDeviceStore, metrics: HookMetrics, logger: Logger) throws -> (any PushGateway, [WorkQueue]) {
        var queues: [WorkQueue] = []
        func queue(_ name: String) -> WorkQueue {
            let made = WorkQueue(name: name, capacity: config.pushQueueJobs, workers: 16, whenFull: .drop, metrics: .init(name: name, in: metrics))
            queues.append(made)
            return made
        }
        let provider: any PushGateway = switch config.pushProvider {
        case .log: JSONLinesPushGateway(path: config.pushLogPath, logger: logger)
        case .webhook(let url, let attempts, let firstRetry):
            WebhookPushGateway(url: url, attempts: attempts, firstRetry: firstRetry, queue: queue("push"), logger: logger)
        }
        var services: [PushDevice.Service: any PushGateway] = [:]
        if !config.apns.isEmpty {
            services[.apns] = try APNsPushGateway(teams: config.apns, store: store, queue: queue("push_apns"), metrics: metrics, logger: logger)
        }
        if let fcm = config.fcm {
            services[.fcm] = try FCMPushGateway(settings: fcm, store: store, queue: queue("push_fcm"), metrics: metrics, logger: logger)
        }
        // A maker's provider, on a queue of its own (`push_xiaomi`, …), when it has accounts.
        func vendor<Gateway: VendorPushGateway>(_ service: PushDevice.Service, _: Gateway.Type, _ accounts: [Gateway.Settings]) throws {
            guard !accounts.isEmpty else { return }
            services[service] = try Gateway(accounts: accounts, store: store, queue: queue("push_\(service.rawValue)"), metrics: metrics, logger: logger)
        }
        try vendor(.xiaomi, XiaomiPushGateway.self, config.xiaomi)
        try vendor(.meizu, MeizuPushGateway.self, config.meizu)
        try vendor(.oppo, OPPOPushGateway.self, config.oppo)
        try vendor(.vivo, VivoPushGateway.self, config.vivo)
        try vendor(.huawei, HuaweiPushGateway.self, config.huawei)
        try vendor(.honor, HonorPushGateway.self, config.honor)
        guard !services.isEmpty else { return (provider, queues) }
        return (PushRouter(services: services, others: provider), queues)
    }

    static func relayCounters(_ metrics: HookMetrics) -> PostgresNodeLink.Counters {
        .init(
            published: metrics.makeCounter(subsystem: "cluster", name: "relays_published", help: "Relays sent to the other nodes."),
            received: metrics.makeCounter(subsystem: "cluster", name: "relays_received", help: "Relays the other nodes sent this one."),
            lost: metrics.makeCounter(subsystem: "cluster", name: "relays_lost", help: "Relays that could not be sent to the other nodes.")
        )
    }

    /// The hook pipeline a server with this config and these plugins runs, recording in `metrics`.
    public static func makeHooks(
        config: ServerConfig, plugins: [any SwitchboardPlugin], metrics: HookMetrics = HookMetrics(), logger: Logger
    ) -> HookPipeline {
        let hooks = HookPipeline(settings: config.hooks, metrics: metrics, logger: logger)
        for plugin in plugins {
            hooks.register(PluginHandler(plugin))
        }
        register(config.remoteEngines, appID: config.appID, masterKey: config.masterKey, into: hooks, logger: logger)
        return hooks
    }

    /// Adds a handler of kind `remote` for each LeanEngine app (see `RemoteEngine`).
    public static func register(_ engines: [RemoteEngine], appID: String, masterKey: String, into hooks: HookPipeline, logger: Logger) {
        for engine in engines {
            hooks.register(RemoteHookHandler(engine: engine, appID: appID, masterKey: masterKey, metrics: hooks.metrics, logger: logger))
        }
    }

    /// Serves until SIGINT or SIGTERM, then says `goaway` to clients and stops gracefully.
    public func run() async throws {
        let group = try await serviceGroup(signals: [.sigint, .sigterm]) { port in
            logger.notice("switchboard listening", metadata: ["host": "\(config.host)", "port": "\(port)"])
        }
        try await group.run()
    }

    /// The server's services, ready to run. `onListening` receives the bound port (useful
    /// with port 0). Shut it down with the group's `triggerGracefulShutdown()`.
    public func serviceGroup(
        signals: [UnixSignal] = [], onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws -> ServiceGroup {
        try await core.prepare()
        let scriptService = ScriptService(library: scripts, logger: logger)
        await scriptService.loadAll()
        var routes = HTTPRoutes()
        routes.get("/health") { [store] _, _ in
            store.acceptsWrites
                ? Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "ok")))
                : Response(status: .serviceUnavailable, body: .init(byteBuffer: ByteBuffer(string: "database refuses writes; restart the server")))
        }
        routes.get("/metrics") { [metrics] _, _ in metrics.exposition() }
        let route = RTMRoute(appID: config.appID, publicURL: config.publicURL)
        routes.get("/v1/route") { request, _ in route.respond(to: request) }
        let authenticator = RESTAuthenticator(appID: config.appID, appKey: config.appKey, masterKey: config.masterKey, sessionTokens: core.sessionTokens, clock: core.clock)
        routes.authenticate(with: authenticator)
        ClientRESTAPI(core: core, appData: appData).register(on: &routes)
        ServerRESTAPI(core: core, appData: appData, rateLimits: config.restRateLimits, metrics: hooks.metrics).register(on: &routes)
        let router = routes.finished()
        let requestHeadDeadline = TimeAmount.seconds(Int64(config.requestHeadTimeoutSeconds))
        var app = Application(
            router: router,
            server: HTTPServerBuilder { [gateway, config] responder in
                HTTPAndWebSocketChannel(
                    responder: responder, gateway: gateway, httpIdleTimeout: .seconds(config.httpIdleTimeoutSeconds),
                    requestHeadDeadline: requestHeadDeadline
                )
            },
            configuration: .init(address: .hostname(config.host, port: config.port), serverName: "switchboard"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        // The HTTP server (and the WebSockets on it) accepts only once this node listens to the
        // others: its first clients would miss what is relayed to them before.
        app.beforeServerStarts { [nodeLink] in await nodeLink?.waitUntilListening(limit: .seconds(10)) }
        let drainTime = Duration.seconds(config.shutdownDrainSeconds)
        let queues = (pushQueues + [background]).map { queue in
            ServiceGroupConfiguration.ServiceConfiguration(service: WorkQueueService(queue: queue, drainTime: drainTime, logger: logger))
        }
        // First, so that it stops last: everything else may still write on the way out.
        let storeService = (store as? PostgresStore).map { [ServiceGroupConfiguration.ServiceConfiguration(service: StoreClosingService(store: $0))] } ?? []
        // Next, so that sessions closing on the way out still reach the other nodes.
        let linkService = nodeLink.map { [ServiceGroupConfiguration.ServiceConfiguration(service: NodeLinkService(link: $0, core: core, logger: logger))] } ?? []
        return ServiceGroup(
            configuration: .init(
                services: storeService + linkService + queues + [
                    .init(service: app),
                    // Without a hooks folder there is nothing to watch: its end must not end the server.
                    .init(service: scriptService, successTerminationBehavior: .ignore, failureTerminationBehavior: .ignore),
                    .init(service: KeywordListService(filter: keywordFilter, logger: logger), successTerminationBehavior: .ignore, failureTerminationBehavior: .ignore),
                    .init(service: RecurringService(interval: .seconds(config.redeliverySeconds)) { [core] in await core.redeliverUnacknowledged() }),
                    .init(service: RecurringService(interval: .seconds(config.expirySweepSeconds)) { [core, config] in
                        await core.deleteExpiredConversations()
                        await core.forgetStaleDevices(retention: .seconds(config.deviceRetentionDays * 86_400))
                    }),
                    .init(service: RecurringService(interval: .seconds(1)) { [gateway] in gateway.closeIdleConnections() }),
                    .init(service: GoodbyeService(gateway: gateway)),
                ],
                gracefulShutdownSignals: signals,
                logger: logger
            )
        )
    }
}
