import Foundation

/// Runs one hook of one script once, in a script host like the server's, under the same CPU
/// budget and with the same containment: what `switchboard hooks test` and `hooks check` do.
public enum ScriptTrial {
    public struct Report: Sendable {
        public enum Outcome: Sendable, Equatable {
            /// The result, as JSON.
            case value(String)
            case failed(String)
            case timedOut
        }

        public var outcome: Outcome
        /// (level, text) lines written with `console`, while loading and during the call.
        public var console: [(level: String, text: String)]
        /// From sending the call to its answer, the trip to the host included.
        public var duration: Duration
        /// The hooks the script defines.
        public var hooks: [String]
    }

    /// Loads `source` and calls its `hook` with `paramsJSON`. Throws if the script does not load.
    public static func run(
        source: String, file: String, hook: String, paramsJSON: String, budget: Duration, env: [String: String] = [:],
        services: ScriptServices = ScriptServices()
    ) async throws(ScriptError) -> Report {
        try await run(.file(source), name: file, hook: hook, paramsJSON: paramsJSON, budget: budget, env: env, services: services)
    }

    /// The same for a script file or a LeanEngine project folder at `path`.
    public static func run(
        path: String, hook: String, paramsJSON: String, budget: Duration, env: [String: String] = [:], modulePaths: [String] = [],
        services: ScriptServices = ScriptServices()
    ) async throws(ScriptError) -> Report {
        let url = URL(fileURLWithPath: path).standardized
        let entry = url.lastPathComponent
        guard let read = try ScriptFolder.read(entry, in: url.deletingLastPathComponent().path, modulePaths: modulePaths) else {
            throw ScriptError(file: path, line: nil, message: "not found")
        }
        return try await run(read.source, name: entry, hook: hook, paramsJSON: paramsJSON, budget: budget, env: env, services: services)
    }

    private static func run(
        _ source: ScriptContext.Source, name file: String, hook: String, paramsJSON: String, budget: Duration, env: [String: String],
        services: ScriptServices
    ) async throws(ScriptError) -> Report {
        let pool = Self.pool(services: services)
        let key = ScriptWorker.Key(name: file, version: "trial")
        let loaded = try await pool.load(key, source: source, file: file, budget: budget, env: env)
        let started = ContinuousClock.now
        let call = await pool.invoke(key, hook: hook, paramsJSON: paramsJSON)
        let duration = ContinuousClock.now - started
        let outcome: Report.Outcome = switch call.outcome {
        case .value(let json): .value(json)
        case .failed(let message): .failed(message)
        case .timedOut: .timedOut
        case .exceededMemory: .failed("grew past the memory limit")
        case .notLoaded: .failed("the script was not loaded")
        }
        return Report(outcome: outcome, console: loaded.logs + call.logs, duration: duration, hooks: loaded.hooks)
    }

    /// What loading a script shows: the hooks it defines, what it declares that is not run,
    /// and the modules it names that it cannot have.
    public struct Check: Sendable {
        public var hooks: [String]
        public var notRun: [String]
        public var missing: [MissingModule]
    }

    /// Loads a script or project folder of a hooks folder (`name.js` or `name`) to see
    /// whether it would load, and what it defines.
    public static func check(entry: String, in directory: String, budget: Duration, modulePaths: [String] = []) async throws(ScriptError) -> Check {
        guard let read = try ScriptFolder.read(entry, in: directory, modulePaths: modulePaths) else {
            throw ScriptError(file: entry, line: nil, message: "not found")
        }
        let report = try await pool().load(ScriptWorker.Key(name: entry, version: read.version), source: read.source, file: entry, budget: budget, env: [:])
        return Check(hooks: report.hooks, notRun: report.inert, missing: read.missing)
    }

    private static func pool(services: ScriptServices = ScriptServices()) -> ScriptPool {
        let settings = ScriptLibrary.Settings(directory: "", workers: 1)
        return ScriptPool(
            size: 1, overrunGrace: settings.overrunGrace, executable: HostProcess.executable, allowance: settings.hostMemoryAllowance,
            services: services
        ) { _, _ in }
    }
}
