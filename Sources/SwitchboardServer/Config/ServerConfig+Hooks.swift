import Foundation
import SwitchboardHooks

/// The sections of `hooks` with a shape of their own: policies by hook point and by handler,
/// remote LeanEngine apps, and the LeanStorage server scripts use.
extension ServerConfig {
    static var hookPoints: Setting {
        Setting(section: "hooks.points", type: "mapping", default: "none", "per hook point (e.g. `_messageReceived`): its handlers' budget and failure policy", fields: [
            .field("<point>.budgetMs", Duration.self, "`hooks.budgetMs`", "time budget of the point's handler calls"),
            .field("<point>.onFailure", FailurePolicy.self, "`hooks.onFailure`", "what a failing handler there does"),
        ], sets: [\.hooks.points]) { points, config in
            for (name, policy) in try points.entries() {
                config.hooks.points[try hookPoint(name, in: "hooks.points")] = try HookSettings.Policy(budget: policy.read("budgetMs"), failurePolicy: policy.read("onFailure"))
            }
        }
    }

    static var hookHandlers: Setting {
        Setting(section: "hooks.handlers", type: "mapping", default: "none", "per handler name (a script's, a plugin's, `keyword-filter`): overrides of what it declares", fields: [
            .field("<handler>.priority", Int.self, "the handler's", "its place in the chain, higher first"),
            .field("<handler>.budgetMs", Duration.self, "the point's", "time budget of its calls"),
            .field("<handler>.onFailure", FailurePolicy.self, "the point's", "what its failure does"),
            .field("<handler>.enabled", Bool.self, "`true`", "`false` takes it out of every chain"),
        ], sets: [\.hooks.handlers]) { handlers, config in
            for (name, handler) in try handlers.entries() {
                config.hooks.handlers[name] = try HookSettings.HandlerOverride(
                    priority: handler.read("priority"), policy: .init(budget: handler.read("budgetMs"), failurePolicy: handler.read("onFailure")),
                    enabled: handler.read("enabled") ?? true
                )
            }
        }
    }

    static var remoteEngines: Setting {
        let defaults = RemoteEngine(name: "", url: URL(fileURLWithPath: "/"), hookKey: "")
        return Setting(section: "hooks.remote[]", type: "list", default: "none", "LeanEngine apps answering hooks over HTTP, each a handler in the chains", fields: [
            .field("name", String.self, "required", "the handler's name in the pipeline, metrics and `hooks list`"),
            .field("url", String.self, "required", "the app's http(s) address: hooks go to `{url}/1.1/functions/{hook}`"),
            .field("hookKey", String.self, "required", "the app's `LEANCLOUD_APP_HOOK_KEY`, sent as `X-LC-Hook-Key`"),
            .field("points", [String].self, "every point", "the hook points it answers"),
            .field("budgetMs", Duration.self, "the point's", "time budget of its calls"),
            .field("onFailure", FailurePolicy.self, "the point's", "what its failure does"),
            .field("priority", Int.self, "none", "its place in the chain, higher first"),
            .field("maxConcurrent", "calls in flight at once; past that a call fails at once under its policy", defaults, \.maxConcurrent),
            .field("breaker.failures", "failures in a row after which calls fail fast for the cooldown, until one probe gets through", defaults, \.breakerFailures),
            .field("breaker.cooldownMs", "how long calls fail fast", defaults, \.breakerCooldown),
        ], sets: [\.remoteEngines]) { remote, config in
            config.remoteEngines = try remote.list().map(remoteEngine)
            if Set(config.remoteEngines.map(\.name)).count < config.remoteEngines.count {
                throw ConfigError("hooks.remote: two engines have the same name")
            }
        }
    }

    private static func remoteEngine(_ remote: ConfigValue) throws -> RemoteEngine {
        let at = remote.path
        guard let name = try remote.read("name", as: String.self), !name.isEmpty else { throw ConfigError("\(at).name is required") }
        guard let url = try remote.read("url", as: String.self).flatMap(URL.init(string:)), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            throw ConfigError("\(at).url must be the http(s) address of the LeanEngine app, e.g. http://127.0.0.1:3001")
        }
        guard let hookKey = try remote.read("hookKey", as: String.self), !hookKey.isEmpty else {
            throw ConfigError("\(at).hookKey is required: the app's LEANCLOUD_APP_HOOK_KEY, which LeanEngine checks on every hook")
        }
        var engine = RemoteEngine(name: name, url: url, hookKey: hookKey)
        if let points = try remote.read("points", as: [String].self) {
            engine.points = Set(try points.map { try hookPoint($0, in: "\(at).points") })
        }
        engine.budget = try remote.read("budgetMs")
        engine.failurePolicy = try remote.read("onFailure")
        engine.priority = try remote.read("priority")
        if let maxConcurrent = try remote.read("maxConcurrent", as: Int.self) {
            guard maxConcurrent > 0 else { throw ConfigError("\(at).maxConcurrent must be positive") }
            engine.maxConcurrent = maxConcurrent
        }
        let breaker = remote["breaker"]
        engine.breakerFailures = try breaker?.read("failures") ?? engine.breakerFailures
        engine.breakerCooldown = try breaker?.read("cooldownMs") ?? engine.breakerCooldown
        return engine
    }

    /// A hook point named in the config under `key`.
    private static func hookPoint(_ name: String, in key: String) throws -> HookPoint {
        guard let point = HookPoint(rawValue: name) else {
            throw ConfigError("\(key): unknown hook point \(name); expected one of \(HookPoint.allCases.map(\.rawValue))")
        }
        return point
    }

    /// Read after `app.id`, the default of its `appId`.
    static var hookStorage: Setting {
        Setting(section: "hooks.storage", type: "section", default: "none",
                "a LeanStorage server (LeanCloud's, or the app's own) that scripts' `AV.Object` and `AV.Query` go to instead of Switchboard's database; `_Conversation` and the REST API stay Switchboard's",
                fields: [
                    .field("url", String.self, "required", "the server's address as `LEANCLOUD_API_SERVER` gives it, without `/1.1`"),
                    .field("appId", String.self, "`app.id`", "the app's id there"),
                    .field("masterKey", String.self, "required", "signs the calls: scripts have master rights there, as on LeanEngine"),
                    .field("timeoutMs", "a call not answered within this fails with 124", RemoteStorage(url: URL(fileURLWithPath: "/"), appID: "", masterKey: ""), \.timeout),
                ], sets: [\.hookStorage]) { storage, config in
            guard let text = try storage.read("url", as: String.self), let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                  url.host?.isEmpty == false, url.query == nil, url.fragment == nil
            else {
                throw ConfigError("hooks.storage.url must be the http(s) address of a LeanStorage server, as LEANCLOUD_API_SERVER gives it, e.g. https://api.example.com")
            }
            guard !url.path.split(separator: "/").contains("1.1") else {
                throw ConfigError("hooks.storage.url is the server's address without /1.1: calls go to {url}/1.1/classes/...")
            }
            guard let masterKey = try storage.read("masterKey", as: String.self), !masterKey.isEmpty else {
                throw ConfigError("hooks.storage.masterKey is required: scripts read and write that storage with master rights, as on LeanEngine")
            }
            let appID = try storage.read("appId", as: String.self)
            guard appID?.isEmpty != true else { throw ConfigError("hooks.storage.appId: the app's id there; leave it out for app.id") }
            var remote = RemoteStorage(url: url, appID: appID ?? config.appID, masterKey: masterKey)
            if let timeoutMs = try storage.read("timeoutMs", as: Int.self) {
                guard timeoutMs > 0 else { throw ConfigError("hooks.storage.timeoutMs must be positive") }
                remote.timeout = .milliseconds(timeoutMs)
            }
            config.hookStorage = remote
        }
    }
}
