import Foundation
import SwitchboardCore

extension ServerConfig {
    /// Every setting of the config file, in the file's order, each declared once: its key,
    /// what it does and its checks; its type and default are the property's. The file is read
    /// by these, a key none of them declares is an error, and `docs/configuration.md`'s table is
    /// made from them (`switchboard config reference`).
    static var settings: [Setting] {
        [
            Setting("server.host", \.host, "the address to listen on (`--host`)"),
            Setting("server.port", \.port, "the port to listen on, 0 for a free one (`--port`)"),
            Setting("server.logLevel", \.logLevel, "`trace`, `debug`, `info`, `notice`, `warning`, `error` or `critical` (`--log-level`)"),
            Setting("server.publicURL", \.publicURL,
                    "the address clients reach the server at (`https://im.example.com`, answered as `wss://`), which `GET /v1/route` gives SDKs; without it, the host each request came to"),

            Setting("app.id", \.appID, "what the SDKs pass as `appId`; sessions for another get 4100"),
            Setting("app.key", \.appKey, "what the SDKs pass as `appKey`"),
            Setting("app.masterKey", \.masterKey, "signs login and conversation requests (HMAC-SHA1) and session tokens; change it before going live"),
            Setting("app.signatures", \.signaturesRequired, "`session/open`, `conv/start`, `conv/add`, `conv/remove` must be signed"),
            Setting("app.signatureMaxAgeSeconds", \.signatureMaxAgeSeconds, "how long a signature is good (LeanCloud's 6 hours); each nonce is accepted once"),
            Setting("app.privateConversations", \.privateConversations,
                    "non-members cannot find one-to-one and group conversations, and join them only when invited or signed"),

            Setting("storage.dataDir", \.dataDirectory, "the folder of the SQLite database, `switchboard.sqlite` (`--data-dir`)"),
            postgres,

            Setting("hooks.dir", \.hooksDirectory, "hook scripts (`*.js`) and LeanEngine project folders, reloaded when written"),
            Setting("hooks.workers", \.scriptWorkers, "script host processes", default: "one per core"),
            Setting("hooks.heapCapMB", \.scriptHeapCapMB, "a script whose heap grows past this is unloaded"),
            Setting("hooks.budgetMs", \.hooks.defaultBudget, "time budget of one handler call, unless a point or handler says otherwise"),
            Setting("hooks.onFailure", \.hooks.defaultFailurePolicy, "`open`: a failing handler is ignored; `closed`: the request is refused"),
            hookPoints,
            hookHandlers,
            Setting("hooks.env", \.scriptEnvironment, "what scripts see as `process.env` (nothing of the server's own)"),
            Setting("hooks.modulePaths", \.scriptModulePaths,
                    "folders packages a project's `node_modules` lacks are found in, as Node's `NODE_PATH` (e.g. `/usr/share/nodejs`)") { paths in
                paths.first { !FileManager.default.fileExists(atPath: $0) }.map { "\($0) does not exist" }
            },
            remoteEngines,
            Setting("hooks.http.allow", \.scriptHTTPAllowList, "hosts scripts may call with `AV.Cloud.httpRequest` and `fetch` (`host`, `host:port`, `*.domain`); off while empty",
                    type: "list of strings", default: "none", read: { try HostAllowList([String](config: $0)) }),
            Setting("hooks.http.maxResponseBytes", \.scriptHTTPMaxResponseBytes, "a larger response to a script's request is refused") { $0 > 0 ? nil : "must be positive" },
            hookStorage,

            limit("maxContentBytes", \.maxContentBytes, "larger messages are refused with 4109"),
            limit("maxFrameBytes", \.maxFrameBytes, "larger WebSocket frames close the connection (1009)"),
            limit("idleTimeoutSeconds", \.idleTimeoutSeconds, "no frame at all for this long closes the connection"),
            limit("loginTimeoutSeconds", \.loginTimeoutSeconds, "no `session/open` within this time closes the connection (4108)"),
            limit("requestHeadTimeoutSeconds", \.requestHeadTimeoutSeconds, "a connection whose first request has not fully arrived by then is closed", atLeastOne: true),
            limit("httpIdleTimeoutSeconds", \.httpIdleTimeoutSeconds, "an HTTP (not WebSocket) connection idle between requests this long is closed", atLeastOne: true),
            limit("outboundQueueCommands", \.outboundQueueCommands,
                  "commands waiting for a client that reads slowly; past this it is disconnected and catches up from the store at its next login", atLeastOne: true),
            limit("backgroundQueueJobs", \.backgroundQueueJobs,
                  "work after replies (observing hooks, push decisions); when full, a command waits for room and its connection is read no further", atLeastOne: true),
            limit("pushQueueJobs", \.pushQueueJobs, "pushes waiting to be sent in each push service's queue; past this one is dropped (counted)", atLeastOne: true),
            limit("shutdownDrainSeconds", \.shutdownDrainSeconds, "how long shutdown lets queued background work and pushes finish"),
            limit("redeliverySeconds", \.redeliverySeconds, "unacknowledged messages are sent again after this long", atLeastOne: true),
            limit("maxHistoryLimit", \.maxHistoryLimit, "the most messages one history query returns"),
            limit("maxMembers", \.maxMembers, "the most members of a conversation, and ids in one member list (4304)"),
            limit("temporaryConversationTTLSeconds", \.temporaryConversationTTLSeconds, "the longest a temporary conversation lives"),
            limit("expirySweepSeconds", \.expirySweepSeconds, "how often expired temporary conversations are deleted with their messages", atLeastOne: true),

            rateLimit("messagesPerMinute", \.messagesPerMinute,
                      "sends, edits and recalls in conversations and chat rooms, and service-conversation messages to chosen clients"),
            rateLimit("subscriberBroadcastsPerMinute", \.subscriberBroadcastsPerMinute, "`service-conversations/{id}/broadcasts`, their edits and recalls"),
            rateLimit("subscriberBroadcastsPerDay", \.subscriberBroadcastsPerDay, "the same, per UTC day"),
            rateLimit("broadcastsPerMinute", \.broadcastsPerMinute, "`POST /1.2/rtm/broadcasts` (every client)"),
            rateLimit("broadcastsPerDay", \.broadcastsPerDay, "the same, per UTC day"),

            Setting("messages.edit", \.editingAllowed, "senders may edit their messages (4406 when off)"),
            Setting("messages.recall", \.recallAllowed, "senders may recall their messages (4407 when off)"),
            Setting("messages.editWindowSeconds", \.editWindowSeconds, "how long after sending a message may be edited or recalled; 0 for no limit"),
            Setting("messages.offlinePerConversation", \.offlineMessagesPerConversation,
                    "missed messages pushed per conversation at login on lc.protobuf2.1 (the newest; 0 for all); lc.protobuf2.3 clients get unread counts instead"),
            Setting("messages.deviceRetentionDays", \.deviceRetentionDays,
                    "a device (its `deviceId`, else its `deviceToken`, else its tag) not seen for this long is forgotten with its queue of missed messages (history keeps all)",
                    problem: SettingBound.atLeastOne),

            keywords,
            messageTypes,

            pushProvider,
            Setting("push.template", \.pushTemplate, "the payload when neither a hook nor the sender gives one (`${convId}`, `${timestamp}`, `${fromClientId}`)") {
                PushPayload.isValidTemplate($0) ? nil : "must be a JSON object (placeholders ${convId}, ${timestamp}, ${fromClientId})"
            },
            apnsAccounts,
            fcmAccount,
            VendorPush.section(XiaomiAccount.self, \.xiaomi),
            VendorPush.section(MeizuAccount.self, \.meizu),
            VendorPush.section(OPPOAccount.self, \.oppo),
            VendorPush.section(VivoAccount.self, \.vivo),
            VendorPush.section(HuaweiAccount.self, \.huawei),
            VendorPush.section(HonorAccount.self, \.honor),
        ]
    }

    /// `limits.<key>`; `atLeastOne` for those where zero would run the housekeeping in a tight
    /// loop, or leave no room in a queue.
    private static func limit<Value: ConfigReadable & BinaryInteger>(_ key: String, _ property: WritableKeyPath<ServerConfig, Value>, _ summary: String,
                                                                      atLeastOne: Bool = false) -> Setting {
        let problem: ((Value) -> String?)? = atLeastOne ? { SettingBound.atLeastOne($0) } : nil
        return Setting("limits." + key, property, summary, problem: problem)
    }

    /// `rest.rateLimits.<key>`: LeanCloud's limits of the IM REST API, per app and node; past
    /// one, requests of its class get 429 with `Retry-After` until the minute (or UTC day) ends.
    private static func rateLimit(_ key: String, _ limit: WritableKeyPath<RESTRateLimits, Int>, _ summary: String) -> Setting {
        let limits: WritableKeyPath<ServerConfig, RESTRateLimits> = \.restRateLimits
        return Setting("rest.rateLimits." + key, limits.appending(path: limit), summary + "; 0 for no limit") { $0 >= 0 ? nil : "0 (no limit) or more" }
    }
}
