import Foundation
import SwitchboardCore
import SwitchboardHooks
import SwitchboardJS
import SwitchboardStore

/// The server's configuration: the YAML file in `config/`, then command-line overrides.
/// Every key is optional in the file; what is missing keeps the default shown here. Each
/// property is declared once in `ServerConfig.settings` (its key, what it does, its checks),
/// which reads the file and makes the configuration reference. A new setting is its property
/// here and its line there; then `switchboard config reference --update docs/configuration.md`
/// (a test fails until the reference is regenerated, and one when a property has no line).
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

    /// Reads a config file; keys it leaves out keep their defaults, keys no setting declares
    /// are an error.
    public static func load(path: String) throws -> ServerConfig {
        var config = ServerConfig()
        guard let file = try ConfigValue.document(String(contentsOfFile: path, encoding: .utf8)) else { return config }
        try ConfigSchema.declared.check(file)
        for setting in settings {
            try setting.read(file, &config)
        }
        return config
    }
}
