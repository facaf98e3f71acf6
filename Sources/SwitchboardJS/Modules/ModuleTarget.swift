/// What a `require` gets: a file of the project, LeanCloud's SDK (the prelude's `AV`), one of
/// Node's core modules, or a stand-in for what cannot be had.
enum ModuleTarget: Equatable, Sendable {
    case file(String)
    case sdk
    case core(String)
    /// A web framework: the project's routes load and are not served.
    case web
    /// Why the module cannot be had; it loads as a stand-in that refuses use in hook calls.
    case unavailable(String)

    /// How the prelude's `require` reads it: `kind:detail`.
    var encoded: String {
        switch self {
        case .file(let path): "file:" + path
        case .sdk: "sdk"
        case .core(let name): "core:" + name
        case .web: "web"
        case .unavailable(let problem): "unavailable:" + problem
        }
    }

    static let webFrameworks: Set<String> = ["express", "koa"]

    /// Node's core modules that would reach files, processes or the network.
    static let withheldCoreModules: Set<String> = [
        "fs", "fs/promises", "http", "https", "http2", "net", "tls", "dgram", "dns", "child_process", "cluster", "os",
        "vm", "worker_threads", "module", "inspector", "v8", "readline", "repl", "tty", "perf_hooks", "async_hooks",
    ]
    /// The rest of Node's core modules that Switchboard does not provide.
    static let otherCoreModules: Set<String> = [
        "constants", "diagnostics_channel", "domain", "punycode", "process", "stream", "string_decoder",
        "sys", "timers", "trace_events", "wasi", "zlib",
    ]

    static let notInstalled = "is not installed: put it in the project's node_modules or in a folder of hooks.modulePaths"
}

extension ModuleResolution {
    /// What `require(name)` from `directory` gets.
    func target(of name: String, from directory: String) -> ModuleTarget {
        if Self.sdkNames.contains(name) { return .sdk }
        let core = name.hasPrefix("node:") ? String(name.dropFirst(5)) : name
        // The core modules' private helpers (switchboard:…) are theirs alone.
        if !core.hasPrefix("switchboard:"), NodeModules.source(named: core) != nil { return .core(core) }
        if ModuleTarget.withheldCoreModules.contains(core) {
            return .unavailable("reaches files, processes or the network, which hook scripts cannot")
        }
        if ModuleTarget.otherCoreModules.contains(core) || name.hasPrefix("node:") {
            return .unavailable("is one of Node's modules that hook scripts do not have")
        }
        if ModuleTarget.webFrameworks.contains(name) { return .web }
        if let path = resolve(name, from: directory) { return .file(path) }
        return .unavailable(ModuleTarget.notInstalled)
    }
}
