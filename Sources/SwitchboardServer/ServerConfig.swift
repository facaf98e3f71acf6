import Foundation
import SwitchboardCore
import SwitchboardHooks
import SwitchboardJS
import SwitchboardStore
import Yams

/// The server's configuration: the YAML file in `config/`, then command-line overrides.
/// Every key is optional in the file; what is missing keeps the default shown here.
public struct ServerConfig: Sendable, Equatable {
    public var host = "127.0.0.1"
    public var port = 3000
    /// The address clients reach this server at (`https://im.example.com`), which `/v1/route`
    /// gives SDKs; nil to answer with the host each request came to.
    public var publicURL: String?
    public var appID = "switchboard-dev"
    public var appKey = "switchboard-dev-key"
    public var masterKey = "switchboard-dev-master-key"
    public var signaturesRequired = false
    /// LeanCloud's window: a signature is good for 6 hours.
    public var signatureMaxAgeSeconds: Int64 = 21_600
    /// One-to-one and group conversations hidden from non-members, joined by invitation or
    /// signature only.
    public var privateConversations = false
    public var dataDirectory = "./data"
    public var hooksDirectory = "./hooks"
    public var maxContentBytes = 5120
    /// Frames larger than this close the connection (WebSocket close code 1009).
    public var maxFrameBytes = 65_536
    /// A connection that sends nothing (not even `echo`) for this long is closed.
    public var idleTimeoutSeconds = 300
    /// A connection that has not opened a session within this time is closed (4108).
    public var loginTimeoutSeconds = 30
    /// A connection whose first request has not fully arrived within this time is closed.
    public var requestHeadTimeoutSeconds = 10
    /// An HTTP connection (not a WebSocket) idle this long between requests is closed.
    public var httpIdleTimeoutSeconds = 60
    /// Commands that may wait for a client that reads slowly; past this it is disconnected
    /// and catches up from the store when it logs in again.
    public var outboundQueueCommands = 1000
    /// Jobs (observing hooks, push decisions) waiting to run after replies; a command that
    /// finds the queue full waits for room, so its connection is read no further until then.
    public var backgroundQueueJobs = 10_000
    /// Webhook pushes waiting to be sent; past this a push is dropped and counted.
    public var pushQueueJobs = 10_000
    /// How long shutdown lets queued background work and pushes finish.
    public var shutdownDrainSeconds: Int64 = 5
    public var redeliverySeconds: Int64 = 30
    public var maxHistoryLimit = 1000
    public var maxMembers = 500
    public var temporaryConversationTTLSeconds: Int32 = 86_400
    /// How often temporary conversations past their TTL are deleted with their messages.
    public var expirySweepSeconds: Int64 = 60
    public var editingAllowed = true
    public var recallAllowed = true
    /// Seconds after sending during which a message may be edited or recalled; 0 for always.
    public var editWindowSeconds: Int64 = 0
    /// Missed messages pushed per conversation at login (the newest); 0 for all.
    public var offlineMessagesPerConversation = 20
    /// A device not seen for this many days is forgotten with what was queued for it
    /// (history keeps it).
    public var deviceRetentionDays: Int64 = 30
    public var logLevel = "info"
    /// Budgets, failure policies and per-handler overrides of the hook pipeline.
    public var hooks = HookSettings()
    /// Script host processes for hook scripts.
    public var scriptWorkers = ProcessInfo.processInfo.activeProcessorCount
    /// A script VM past this size is unloaded.
    public var scriptHeapCapMB = 64
    /// What scripts see as `process.env` (`hooks.env`).
    public var scriptEnvironment: [String: String] = [:]
    /// Where packages a project lacks are found (`hooks.modulePaths`), as Node's NODE_PATH.
    public var scriptModulePaths: [String] = []
    /// Hosts scripts may call with `AV.Cloud.httpRequest` and `fetch` (`hooks.http.allow`).
    public var scriptHTTPAllowList = HostAllowList.none
    /// Past this, a response to a script's request is refused (`hooks.http.maxResponseBytes`).
    public var scriptHTTPMaxResponseBytes = 1 << 20
    /// LeanEngine apps answering hooks over HTTP (`hooks.remote`).
    public var remoteEngines: [RemoteEngine] = []
    /// The LeanStorage server scripts' `AV.Object` and `AV.Query` go to (`hooks.storage`);
    /// nil for Switchboard's own database.
    public var hookStorage: RemoteStorage?
    /// The built-in keyword filter; nil when turned off.
    public var keywordFilter: KeywordFilter.Settings? = KeywordFilter.Settings(file: "config/keywords.txt")
    /// The built-in typed-message check; nil when turned off (the default, so that apps
    /// moving over keep working until their types are declared).
    public var messageTypes: MessageTypeValidator.Settings?
    /// Where push decisions go.
    public var pushProvider = PushProvider.log(file: nil)
    /// When set, iOS devices' pushes go straight to Apple, with the key of the team a push's
    /// `_apns_team_id` names, else the first's; the rest to `pushProvider`.
    public var apns: [APNsSettings] = []
    /// When set, Android devices on FCM get their pushes from Firebase; the rest go to `pushProvider`.
    public var fcm: FCMSettings?
    /// Android devices on Xiaomi's MiPush (`vendor` `mi`), by the account their `deviceProfile` picks.
    public var xiaomi: [XiaomiSettings] = []
    /// Android devices on Meizu's Flyme push (`vendor` `mz`), by the account their `deviceProfile` picks.
    public var meizu: [MeizuSettings] = []
    /// OPPO Push accounts for Android devices on OPPO (`vendor` `oppo`), by `deviceProfile`.
    public var oppo: [OPPOSettings] = []
    /// vivo Push accounts for Android devices on vivo (`vendor` `vivo`), by `deviceProfile`.
    public var vivo: [VivoSettings] = []
    /// Android devices on Huawei Push Kit (`vendor` `HMS`), with the account their `deviceProfile` picks.
    public var huawei: [HuaweiSettings] = []
    /// Android devices on Honor Push (`vendor` `honor`), with the account their `deviceProfile` picks.
    public var honor: [HonorSettings] = []
    /// The payload when neither a hook nor the sender gives one.
    public var pushTemplate = PushPayload.defaultTemplate
    /// LeanCloud's per-minute and per-day limits of the REST API's sends (`rest.rateLimits`).
    public var restRateLimits = RESTRateLimits()

    public enum PushProvider: Sendable, Equatable {
        /// One JSON line per push in `file` (default: `push.log` in the data folder).
        case log(file: String?)
        /// POST each push to `url`, trying `attempts` times with doubling waits from `firstRetry`.
        case webhook(url: URL, attempts: Int, firstRetry: Duration)
    }

    public var pushLogPath: String {
        if case .log(let file?) = pushProvider { return file }
        return URL(fileURLWithPath: dataDirectory).appendingPathComponent("push.log").path
    }

    public init() {}

    /// When set, the store is this PostgreSQL database (`storage.postgres.url`), shared by
    /// every node; else the SQLite file in the data folder.
    public var postgresURL: String?
    /// Connections this node opens to PostgreSQL at most.
    public var postgresMaxConnections = 20
    /// How often a node tells the others sharing the database it is alive; one silent for
    /// three times this is gone, and its sessions with it.
    public var nodeHeartbeatSeconds = 5

    public var databasePath: String {
        URL(fileURLWithPath: dataDirectory).appendingPathComponent("switchboard.sqlite").path
    }

    public var scriptSettings: ScriptLibrary.Settings {
        var settings = ScriptLibrary.Settings(directory: hooksDirectory, workers: scriptWorkers, heapCapBytes: scriptHeapCapMB << 20)
        settings.env = scriptEnvironment
        settings.modulePaths = scriptModulePaths
        return settings
    }

    /// Outbound HTTP for scripts; nil (off) while the allow list is empty.
    public var scriptHTTP: (any ScriptHTTP)? {
        scriptHTTPAllowList.isEmpty ? nil : ScriptHTTPClient(allowList: scriptHTTPAllowList, maxResponseBytes: scriptHTTPMaxResponseBytes)
    }

    public var coreSettings: CoreSettings {
        CoreSettings(
            appID: appID,
            masterKey: masterKey,
            signaturesRequired: signaturesRequired,
            signatureMaxAge: signatureMaxAgeSeconds,
            privateConversations: privateConversations,
            maxContentBytes: maxContentBytes,
            maxHistoryLimit: maxHistoryLimit,
            redeliveryInterval: redeliverySeconds,
            temporaryConversationTTL: temporaryConversationTTLSeconds,
            maxMembers: maxMembers,
            editingAllowed: editingAllowed,
            recallAllowed: recallAllowed,
            editWindow: editWindowSeconds > 0 ? editWindowSeconds : nil,
            offlineMessagesPerConversation: offlineMessagesPerConversation > 0 ? offlineMessagesPerConversation : nil,
            pushTemplate: pushTemplate
        )
    }

    /// Where `switchboard` looks for its config when not told.
    public static let defaultPath = "config/switchboard.yaml"

    /// The config at `explicitPath`, else the default file when it exists, else the defaults.
    public static func load(explicitPath: String?) throws -> ServerConfig {
        if let explicitPath { return try load(path: explicitPath) }
        return FileManager.default.fileExists(atPath: defaultPath) ? try load(path: defaultPath) : ServerConfig()
    }

    /// Reads a config file; keys it leaves out keep their defaults.
    public static func load(path: String) throws -> ServerConfig {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let file = try YAMLDecoder().decode(ConfigFile.self, from: text)
        return try file.applied(to: ServerConfig())
    }
}

/// A config file that parses but says something impossible.
public struct ConfigError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// The file's layout, sections as operators read them.
struct ConfigFile: Decodable {
    struct Server: Decodable { var host: String?; var port: Int?; var logLevel: String?; var publicURL: String? }
    struct App: Decodable {
        var id: String?
        var key: String?
        var masterKey: String?
        var signatures: Bool?
        var signatureMaxAgeSeconds: Int64?
        var privateConversations: Bool?
    }
    struct Storage: Decodable {
        var dataDir: String?
        var postgres: Postgres?
    }

    struct Postgres: Decodable {
        var url: String?
        var maxConnections: Int?
        var heartbeatSeconds: Int?
    }
    struct Policy: Decodable {
        var budgetMs: Int?
        var onFailure: FailurePolicy?
        var priority: Int?
        var enabled: Bool?

        var settings: HookSettings.Policy {
            HookSettings.Policy(budget: budgetMs.map { .milliseconds($0) }, failurePolicy: onFailure)
        }
    }
    struct Hooks: Decodable {
        var dir: String?
        var workers: Int?
        var heapCapMB: Int?
        var budgetMs: Int?
        var onFailure: FailurePolicy?
        /// By hook point name, e.g. `_messageReceived`.
        var points: [String: Policy]?
        /// By handler name.
        var handlers: [String: Policy]?
        /// Scripts' `process.env`.
        var env: [String: String]?
        var modulePaths: [String]?
        var http: HTTP?
        var remote: [Remote]?
        var storage: HookStorage?

        /// A hook point named in the config under `key`.
        static func point(_ name: String, in key: String) throws -> HookPoint {
            guard let point = HookPoint(rawValue: name) else {
                throw ConfigError("\(key): unknown hook point \(name); expected one of \(HookPoint.allCases.map(\.rawValue))")
            }
            return point
        }
    }
    struct Remote: Decodable {
        var name: String?
        var url: String?
        var hookKey: String?
        var points: [String]?
        var budgetMs: Int?
        var onFailure: FailurePolicy?
        var priority: Int?
        var maxConcurrent: Int?
        var breaker: Breaker?

        struct Breaker: Decodable {
            var failures: Int?
            var cooldownMs: Int?
        }

        func engine(at index: Int) throws -> RemoteEngine {
            let at = "hooks.remote[\(index)]"
            guard let name, !name.isEmpty else { throw ConfigError("\(at).name is required") }
            guard let url = url.flatMap(URL.init(string:)), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                throw ConfigError("\(at).url must be the http(s) address of the LeanEngine app, e.g. http://127.0.0.1:3001")
            }
            guard let hookKey, !hookKey.isEmpty else {
                throw ConfigError("\(at).hookKey is required: the app's LEANCLOUD_APP_HOOK_KEY, which LeanEngine checks on every hook")
            }
            var engine = RemoteEngine(name: name, url: url, hookKey: hookKey)
            if let points {
                engine.points = Set(try points.map { try Hooks.point($0, in: "\(at).points") })
            }
            engine.budget = budgetMs.map { .milliseconds($0) }
            engine.failurePolicy = onFailure
            engine.priority = priority
            if let maxConcurrent {
                guard maxConcurrent > 0 else { throw ConfigError("\(at).maxConcurrent must be positive") }
                engine.maxConcurrent = maxConcurrent
            }
            engine.breakerFailures = breaker?.failures ?? engine.breakerFailures
            if let cooldown = breaker?.cooldownMs { engine.breakerCooldown = .milliseconds(cooldown) }
            return engine
        }
    }
    struct HookStorage: Decodable {
        var url: String?
        var appId: String?
        var masterKey: String?
        var timeoutMs: Int?

        /// The server, with the app's id there (the server's own `app.id` unless given).
        func settings(appID: String) throws -> RemoteStorage {
            guard let text = url, let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false,
                  url.query == nil, url.fragment == nil
            else {
                throw ConfigError("hooks.storage.url must be the http(s) address of a LeanStorage server, as LEANCLOUD_API_SERVER gives it, e.g. https://api.example.com")
            }
            guard !url.path.split(separator: "/").contains("1.1") else {
                throw ConfigError("hooks.storage.url is the server's address without /1.1: calls go to {url}/1.1/classes/...")
            }
            guard let masterKey, !masterKey.isEmpty else {
                throw ConfigError("hooks.storage.masterKey is required: scripts read and write that storage with master rights, as on LeanEngine")
            }
            guard appId?.isEmpty != true else { throw ConfigError("hooks.storage.appId: the app's id there; leave it out for app.id") }
            var storage = RemoteStorage(url: url, appID: appId ?? appID, masterKey: masterKey)
            if let timeoutMs {
                guard timeoutMs > 0 else { throw ConfigError("hooks.storage.timeoutMs must be positive") }
                storage.timeout = .milliseconds(timeoutMs)
            }
            return storage
        }
    }
    struct HTTP: Decodable {
        var allow: [String]?
        var maxResponseBytes: Int?
    }
    struct Limits: Decodable {
        var maxContentBytes: Int?
        var maxFrameBytes: Int?
        var idleTimeoutSeconds: Int?
        var loginTimeoutSeconds: Int?
        var requestHeadTimeoutSeconds: Int?
        var httpIdleTimeoutSeconds: Int?
        var outboundQueueCommands: Int?
        var backgroundQueueJobs: Int?
        var pushQueueJobs: Int?
        var shutdownDrainSeconds: Int64?
        var redeliverySeconds: Int64?
        var maxHistoryLimit: Int?
        var maxMembers: Int?
        var temporaryConversationTTLSeconds: Int32?
        var expirySweepSeconds: Int64?
    }

    struct Keywords: Decodable {
        var enabled: Bool?
        var file: String?
        var ignoreCase: Bool?
        /// `one-to-one`, `group`, `chat-room`.
        var conversations: [ConversationKind]?
    }

    struct Push: Decodable {
        var provider: String?
        var file: String?
        var url: String?
        var attempts: Int?
        var firstRetryMs: Int?
        var template: String?
        var apns: OneOrMany<APNs>?
        var fcm: FCM?
        var xiaomi: OneOrMany<Xiaomi>?
        var meizu: OneOrMany<Meizu>?
        var oppo: OneOrMany<OPPO>?
        var vivo: OneOrMany<Vivo>?
        var huawei: OneOrMany<Huawei>?
        var honor: OneOrMany<Honor>?
    }

    struct FCM: Decodable {
        var serviceAccountFile: String?
        var sendUrl: String?
        var trustRootsFile: String?
        var attempts: Int?
        var firstRetryMs: Int?
    }

    struct APNs: Decodable {
        var keyFile: String?
        var keyId: String?
        var teamId: String?
        /// A key limited to the development environment; `keyFile` then serves production.
        var developmentKeyFile: String?
        var developmentKeyId: String?
        var topic: String?
        var productionUrl: String?
        var developmentUrl: String?
        var trustRootsFile: String?
        var attempts: Int?
        var firstRetryMs: Int?
        var busyRetryMs: Int?
    }

    struct MessageTypes: Decodable {
        var enabled: Bool?
        /// Application type numbers and the fields each requires.
        var declared: [String: [String]]?
    }

    struct Messages: Decodable {
        var edit: Bool?
        var recall: Bool?
        var editWindowSeconds: Int64?
        var offlinePerConversation: Int?
        var deviceRetentionDays: Int64?
    }

    struct REST: Decodable {
        var rateLimits: RateLimits?
    }

    struct RateLimits: Decodable {
        var messagesPerMinute: Int?
        var subscriberBroadcastsPerMinute: Int?
        var subscriberBroadcastsPerDay: Int?
        var broadcastsPerMinute: Int?
        var broadcastsPerDay: Int?

        func applied(to base: RESTRateLimits) throws -> RESTRateLimits {
            var limits = base
            let given: [(String, Int?, WritableKeyPath<RESTRateLimits, Int>)] = [
                ("messagesPerMinute", messagesPerMinute, \.messagesPerMinute),
                ("subscriberBroadcastsPerMinute", subscriberBroadcastsPerMinute, \.subscriberBroadcastsPerMinute),
                ("subscriberBroadcastsPerDay", subscriberBroadcastsPerDay, \.subscriberBroadcastsPerDay),
                ("broadcastsPerMinute", broadcastsPerMinute, \.broadcastsPerMinute), ("broadcastsPerDay", broadcastsPerDay, \.broadcastsPerDay),
            ]
            for case let (key, value?, keyPath) in given {
                guard value >= 0 else { throw ConfigError("rest.rateLimits.\(key): 0 (no limit) or more") }
                limits[keyPath: keyPath] = value
            }
            return limits
        }
    }

    var server: Server?
    var app: App?
    var storage: Storage?
    var hooks: Hooks?
    var limits: Limits?
    var messages: Messages?
    var keywords: Keywords?
    var messageTypes: MessageTypes?
    var push: Push?
    var rest: REST?

    func applied(to base: ServerConfig) throws -> ServerConfig {
        var config = base
        config.host = server?.host ?? config.host
        config.port = server?.port ?? config.port
        config.logLevel = server?.logLevel ?? config.logLevel
        config.publicURL = server?.publicURL ?? config.publicURL
        config.appID = app?.id ?? config.appID
        config.appKey = app?.key ?? config.appKey
        config.masterKey = app?.masterKey ?? config.masterKey
        config.signaturesRequired = app?.signatures ?? config.signaturesRequired
        config.signatureMaxAgeSeconds = app?.signatureMaxAgeSeconds ?? config.signatureMaxAgeSeconds
        config.privateConversations = app?.privateConversations ?? config.privateConversations
        config.dataDirectory = storage?.dataDir ?? config.dataDirectory
        if let postgres = storage?.postgres {
            guard let url = postgres.url else { throw ConfigError("storage.postgres.url: a postgres:// URL") }
            do { try PostgresStore.checkURL(url) } catch { throw ConfigError("\(error)") }
            config.postgresURL = url
            config.postgresMaxConnections = postgres.maxConnections ?? config.postgresMaxConnections
            guard config.postgresMaxConnections >= 1 else { throw ConfigError("storage.postgres.maxConnections: at least 1") }
            config.nodeHeartbeatSeconds = postgres.heartbeatSeconds ?? config.nodeHeartbeatSeconds
            guard config.nodeHeartbeatSeconds >= 1 else { throw ConfigError("storage.postgres.heartbeatSeconds: at least 1") }
        }
        config.hooksDirectory = hooks?.dir ?? config.hooksDirectory
        config.scriptWorkers = hooks?.workers ?? config.scriptWorkers
        config.scriptHeapCapMB = hooks?.heapCapMB ?? config.scriptHeapCapMB
        config.scriptEnvironment = hooks?.env ?? config.scriptEnvironment
        config.scriptModulePaths = hooks?.modulePaths ?? config.scriptModulePaths
        for path in config.scriptModulePaths where !FileManager.default.fileExists(atPath: path) {
            throw ConfigError("hooks.modulePaths: \(path) does not exist")
        }
        config.remoteEngines = try (hooks?.remote ?? []).enumerated().map { try $1.engine(at: $0) }
        if Set(config.remoteEngines.map(\.name)).count < config.remoteEngines.count {
            throw ConfigError("hooks.remote: two engines have the same name")
        }
        config.hookStorage = try hooks?.storage.map { try $0.settings(appID: config.appID) } ?? config.hookStorage
        if let allow = hooks?.http?.allow { config.scriptHTTPAllowList = try HostAllowList(allow) }
        if let bytes = hooks?.http?.maxResponseBytes {
            guard bytes > 0 else { throw ConfigError("hooks.http.maxResponseBytes must be positive") }
            config.scriptHTTPMaxResponseBytes = bytes
        }
        if let budget = hooks?.budgetMs { config.hooks.defaultBudget = .milliseconds(budget) }
        config.hooks.defaultFailurePolicy = hooks?.onFailure ?? config.hooks.defaultFailurePolicy
        for (name, policy) in hooks?.points ?? [:] {
            config.hooks.points[try Hooks.point(name, in: "hooks.points")] = policy.settings
        }
        for (name, policy) in hooks?.handlers ?? [:] {
            config.hooks.handlers[name] = HookSettings.HandlerOverride(
                priority: policy.priority, policy: policy.settings, enabled: policy.enabled ?? true
            )
        }
        config.maxContentBytes = limits?.maxContentBytes ?? config.maxContentBytes
        config.maxFrameBytes = limits?.maxFrameBytes ?? config.maxFrameBytes
        config.idleTimeoutSeconds = limits?.idleTimeoutSeconds ?? config.idleTimeoutSeconds
        config.loginTimeoutSeconds = limits?.loginTimeoutSeconds ?? config.loginTimeoutSeconds
        config.requestHeadTimeoutSeconds = limits?.requestHeadTimeoutSeconds ?? config.requestHeadTimeoutSeconds
        config.httpIdleTimeoutSeconds = limits?.httpIdleTimeoutSeconds ?? config.httpIdleTimeoutSeconds
        config.outboundQueueCommands = limits?.outboundQueueCommands ?? config.outboundQueueCommands
        config.backgroundQueueJobs = limits?.backgroundQueueJobs ?? config.backgroundQueueJobs
        config.pushQueueJobs = limits?.pushQueueJobs ?? config.pushQueueJobs
        config.shutdownDrainSeconds = limits?.shutdownDrainSeconds ?? config.shutdownDrainSeconds
        config.redeliverySeconds = limits?.redeliverySeconds ?? config.redeliverySeconds
        config.maxHistoryLimit = limits?.maxHistoryLimit ?? config.maxHistoryLimit
        config.maxMembers = limits?.maxMembers ?? config.maxMembers
        config.temporaryConversationTTLSeconds = limits?.temporaryConversationTTLSeconds ?? config.temporaryConversationTTLSeconds
        config.expirySweepSeconds = limits?.expirySweepSeconds ?? config.expirySweepSeconds
        // Zero would run the housekeeping in a tight loop.
        let positive: [(String, Int64)] = [
            ("redeliverySeconds", config.redeliverySeconds), ("expirySweepSeconds", config.expirySweepSeconds),
            ("requestHeadTimeoutSeconds", Int64(config.requestHeadTimeoutSeconds)), ("httpIdleTimeoutSeconds", Int64(config.httpIdleTimeoutSeconds)),
            ("outboundQueueCommands", Int64(config.outboundQueueCommands)), ("backgroundQueueJobs", Int64(config.backgroundQueueJobs)),
            ("pushQueueJobs", Int64(config.pushQueueJobs)),
        ]
        for (key, value) in positive where value < 1 {
            throw ConfigError("limits.\(key): must be at least 1")
        }
        if keywords?.enabled == false {
            config.keywordFilter = nil
        } else if let keywords {
            var filter = config.keywordFilter ?? KeywordFilter.Settings(file: "config/keywords.txt")
            filter.file = keywords.file ?? filter.file
            filter.ignoresCase = keywords.ignoreCase ?? filter.ignoresCase
            filter.conversationKinds = keywords.conversations.map(Set.init) ?? filter.conversationKinds
            config.keywordFilter = filter
        }
        if let messageTypes, messageTypes.enabled ?? true {
            var declared: [Int: [String]] = [:]
            for (type, fields) in messageTypes.declared ?? [:] {
                guard let number = Int(type), number > 0 else {
                    throw ConfigError("messageTypes.declared: \(type) is not a positive message type number")
                }
                declared[number] = fields
            }
            config.messageTypes = MessageTypeValidator.Settings(declaredTypes: declared)
        } else if messageTypes != nil {
            config.messageTypes = nil
        }
        if let push {
            try apply(push, to: &config)
        }
        config.editingAllowed = messages?.edit ?? config.editingAllowed
        config.recallAllowed = messages?.recall ?? config.recallAllowed
        config.editWindowSeconds = messages?.editWindowSeconds ?? config.editWindowSeconds
        config.offlineMessagesPerConversation = messages?.offlinePerConversation ?? config.offlineMessagesPerConversation
        config.deviceRetentionDays = messages?.deviceRetentionDays ?? config.deviceRetentionDays
        if config.deviceRetentionDays < 1 { throw ConfigError("messages.deviceRetentionDays: must be at least 1") }
        if let limits = rest?.rateLimits { config.restRateLimits = try limits.applied(to: config.restRateLimits) }
        return config
    }

    private static func apnsSettings(_ apns: APNs) throws -> APNsSettings {
        guard let keyFile = apns.keyFile, let keyID = apns.keyId, let teamID = apns.teamId, let topic = apns.topic else {
            throw ConfigError("push.apns: keyFile, keyId, teamId and topic are all required")
        }
        guard FileManager.default.isReadableFile(atPath: keyFile) else { throw ConfigError("push.apns.keyFile: cannot read \(keyFile)") }
        var settings = APNsSettings(keyFile: keyFile, keyID: keyID, teamID: teamID, topic: topic)
        switch (apns.developmentKeyFile, apns.developmentKeyId) {
        case (nil, nil):
            break
        case (let file?, let keyID?):
            guard FileManager.default.isReadableFile(atPath: file) else { throw ConfigError("push.apns.developmentKeyFile: cannot read \(file)") }
            settings.developmentKeyFile = file
            settings.developmentKeyID = keyID
        default:
            throw ConfigError("push.apns: developmentKeyFile and developmentKeyId go together")
        }
        for (name, text, keyPath) in [
            ("productionUrl", apns.productionUrl, \APNsSettings.productionURL), ("developmentUrl", apns.developmentUrl, \APNsSettings.developmentURL),
        ] {
            guard let text else { continue }
            guard let url = URL(string: text), url.scheme == "https" else { throw ConfigError("push.apns.\(name): an https URL") }
            settings[keyPath: keyPath] = url
        }
        settings.trustRootsFile = apns.trustRootsFile
        settings.attempts = apns.attempts ?? settings.attempts
        settings.firstRetry = apns.firstRetryMs.map { .milliseconds($0) } ?? settings.firstRetry
        settings.busyRetry = apns.busyRetryMs.map { .milliseconds($0) } ?? settings.busyRetry
        return settings
    }

    private static func fcmSettings(_ fcm: FCM) throws -> FCMSettings {
        guard let file = fcm.serviceAccountFile else { throw ConfigError("push.fcm: serviceAccountFile is required") }
        guard FileManager.default.isReadableFile(atPath: file) else { throw ConfigError("push.fcm.serviceAccountFile: cannot read \(file)") }
        var settings = FCMSettings(serviceAccountFile: file)
        if let text = fcm.sendUrl {
            guard let url = URL(string: text), url.scheme == "https" else { throw ConfigError("push.fcm.sendUrl: an https URL") }
            settings.sendURL = url
        }
        settings.trustRootsFile = fcm.trustRootsFile
        settings.attempts = fcm.attempts ?? settings.attempts
        settings.firstRetry = fcm.firstRetryMs.map { .milliseconds($0) } ?? settings.firstRetry
        return settings
    }

    private func apply(_ push: Push, to config: inout ServerConfig) throws {
        switch push.provider ?? "log" {
        case "log":
            config.pushProvider = .log(file: push.file)
        case "webhook":
            guard let text = push.url, let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
                throw ConfigError("push.url: the webhook provider needs an http(s) URL")
            }
            config.pushProvider = .webhook(url: url, attempts: push.attempts ?? 5, firstRetry: .milliseconds(push.firstRetryMs ?? 1000))
        case let other:
            throw ConfigError("push.provider: \(other) is not a provider; expected log or webhook")
        }
        if let apns = push.apns {
            config.apns = try apns.values.map(Self.apnsSettings)
            let teams = config.apns.map(\.teamID)
            guard Set(teams).count == teams.count else { throw ConfigError("push.apns: each team once") }
        }
        if let fcm = push.fcm {
            config.fcm = try Self.fcmSettings(fcm)
        }
        if let xiaomi = push.xiaomi { config.xiaomi = try Self.xiaomiSettings(xiaomi.values) }
        if let meizu = push.meizu { config.meizu = try Self.meizuSettings(meizu.values) }
        if let oppo = push.oppo { config.oppo = try Self.oppoSettings(oppo.values) }
        if let vivo = push.vivo { config.vivo = try Self.vivoSettings(vivo.values) }
        if let huawei = push.huawei { config.huawei = try Self.huaweiSettings(huawei.values) }
        if let honor = push.honor { config.honor = try Self.honorSettings(honor.values) }
        if let template = push.template {
            guard PushPayload.isValidTemplate(template) else {
                throw ConfigError("push.template: must be a JSON object (placeholders ${convId}, ${timestamp}, ${fromClientId})")
            }
            config.pushTemplate = template
        }
    }
}
