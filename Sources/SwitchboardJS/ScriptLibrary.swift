import Foundation
import Logging
import Synchronization
import SwitchboardHooks
import SwitchboardJSON

/// The hook scripts of one folder: loads each `.js` file into the JavaScript workers,
/// registers it with the pipeline, and reloads it when the file changes. A script that fails
/// to load is reported and its previous version keeps serving.
public final class ScriptLibrary: Sendable {
    public struct Settings: Sendable, Equatable {
        public var directory: String
        /// Script host processes; each holds every script.
        public var workers: Int
        /// A script whose VM grows past this many bytes is unloaded; see also
        /// `hostMemoryAllowance`.
        public var heapCapBytes: Int
        /// How long past its budget a request may run before its host is killed: the CPU
        /// limit cannot stop Promise chains or some native work.
        public var overrunGrace: Duration
        /// A script that runs past its budget this many times within `overrunWindow` is
        /// unloaded until its file changes.
        public var overrunLimit: Int
        public var overrunWindow: Duration
        /// How far a host's resident memory may grow past what its scripts took to load
        /// before it is killed in the call: twice the heap cap, plus what a VM needs beside its
        /// heap (compiled code, strings being built).
        public var hostMemoryAllowance: Int { 2 * heapCapBytes + (32 << 20) }

        /// What script hosts run; nil for `HostProcess.executable`.
        public var hostExecutable: String?
        /// Scripts' `process.env`: only this, nothing of the server's own environment.
        public var env: [String: String] = [:]
        /// Folders packages are found in when a project's own `node_modules` lacks them, as
        /// Node's `NODE_PATH` (`hooks.modulePaths`): an `npm install`ed `node_modules`, or
        /// Debian's `/usr/share/nodejs`.
        public var modulePaths: [String] = []

        public init(
            directory: String, workers: Int = ProcessInfo.processInfo.activeProcessorCount, heapCapBytes: Int = 64 << 20,
            overrunGrace: Duration = .milliseconds(250), overrunLimit: Int = 3, overrunWindow: Duration = .seconds(60),
            hostExecutable: String? = nil
        ) {
            self.directory = directory
            self.workers = workers
            self.heapCapBytes = heapCapBytes
            self.overrunGrace = overrunGrace
            self.overrunLimit = overrunLimit
            self.overrunWindow = overrunWindow
            self.hostExecutable = hostExecutable
        }
    }

    /// Where a script stands, for `hooks list` and logs.
    public struct Status: Sendable, Equatable {
        /// The version serving calls, if any.
        public var activeVersion: String?
        /// Why the file on disk is not the version serving, if it is not.
        public var error: ScriptError?
        /// What the serving version declares that Switchboard does not run (ordinary cloud
        /// functions, class hooks, ...), as `function hello`, `beforeSave Post`.
        public var notRun: [String] = []
    }

    public let settings: Settings
    private let pipeline: HookPipeline
    private let pool: ScriptPool
    private let logger: Logger
    private let statuses = Mutex<[String: Status]>([:])
    /// One reload at a time, so two quick writes to one file land in order.
    private let reloads = ReloadQueue()
    /// When each script last ran past its budget, within the overrun window.
    private let overruns = Mutex<[String: [ContinuousClock.Instant]]>([:])

    /// - Parameter services: what scripts may reach while they run (the app's data, outbound
    ///   HTTP); what is missing answers with an error.
    public init(settings: Settings, pipeline: HookPipeline, logger: Logger, services: ScriptServices = ScriptServices()) {
        self.settings = settings
        self.pipeline = pipeline
        let lost = Dictionary(uniqueKeysWithValues: [ScriptWorker.Loss.overran, .memory, .crashed].map { loss in
            (loss, pipeline.metrics.makeCounter(
                subsystem: "script", name: "hosts_lost", help: "Script host processes killed or dead in a script's request, by reason.",
                labels: [("reason", loss.rawValue)]
            ))
        })
        self.pool = ScriptPool(
            size: settings.workers, overrunGrace: settings.overrunGrace, executable: settings.hostExecutable ?? HostProcess.executable,
            allowance: settings.hostMemoryAllowance, services: services
        ) { loss, key in
            lost[loss]?.increment()
            logger.error("a script host was lost in a request and started again", metadata: [
                "script": "\(key.name)", "version": "\(key.version)", "reason": "\(loss.rawValue)",
            ])
        }
        self.logger = logger
    }

    public var status: [String: Status] { statuses.withLock { $0 } }

    /// Loads every script in the folder; returns the errors of those that failed.
    @discardableResult
    public func loadAll() async -> [ScriptError] {
        var errors: [ScriptError] = []
        for entry in ScriptFolder.entries(in: settings.directory) {
            if let error = await reload(entry) { errors.append(error) }
        }
        return errors
    }

    /// Loads, replaces or removes one script (`name.js`) or project folder (`name`) after
    /// it changed. Returns the load error.
    @discardableResult
    public func reload(_ entry: String) async -> ScriptError? {
        await reloads.run { await self.apply(entry) }
    }

    /// Watches the folder and reloads what changes, until the task is cancelled.
    public func watch() async throws {
        #if canImport(Glibc)
        let changes = try DirectoryWatcher.changes(in: settings.directory)
        for await path in changes {
            if Task.isCancelled { return }
            guard let entry = ScriptFolder.entry(containing: path) else { continue }
            await reload(entry)
        }
        #endif
    }

    private func apply(_ file: String) async -> ScriptError? {
        let started = ContinuousClock.now
        let name = Self.handlerName(for: file)
        do {
            guard let read = try ScriptFolder.read(file, in: settings.directory, modulePaths: settings.modulePaths) else {
                pipeline.unregister(name: name)
                statuses.withLock { $0[name] = nil }
                logger.notice("hook script removed", metadata: ["script": "\(name)"])
                return nil
            }
            if statuses.withLock({ $0[name]?.activeVersion == read.version && $0[name]?.error == nil }) { return nil }
            let handler = try await load(read.source, name: name, version: read.version, file: file)
            pipeline.register(handler)
            statuses.withLock { $0[name] = Status(activeVersion: read.version, error: nil, notRun: handler.notRun) }
            var metadata: Logger.Metadata = [
                "script": "\(name)", "version": "\(read.version)", "hooks": "\(handler.points.map(\.rawValue).sorted())",
                "ms": "\(Self.milliseconds(ContinuousClock.now - started))",
            ]
            if !handler.notRun.isEmpty { metadata["not-run"] = "\(handler.notRun)" }
            logger.notice("hook script loaded", metadata: metadata)
            for module in read.missing {
                logger.warning("a module the script names cannot be had; a hook call that uses it fails", metadata: [
                    "script": "\(name)", "module": "\(module.module)", "at": "\(module.file):\(module.line)", "problem": "\(module.problem)",
                ])
            }
            return nil
        } catch {
            let failure = error as? ScriptError ?? ScriptError(file: file, line: nil, message: "\(error)")
            statuses.withLock { $0[name, default: Status()].error = failure }
            logger.error("hook script failed to load; the previous version stays", metadata: [
                "script": "\(name)", "error": "\(failure)",
            ])
            return failure
        }
    }

    private func load(_ source: ScriptContext.Source, name: String, version: String, file: String) async throws -> ScriptHandler {
        let key = ScriptWorker.Key(name: name, version: version)
        // Top-level code runs under the default budget; calls get the script's own once known.
        let report = try await pool.load(key, source: source, file: file, budget: pipeline.settings.defaultBudget, env: settings.env)
        log(report.logs, script: name)
        var points = Set<HookPoint>()
        for hook in report.hooks {
            if let point = HookPoint(rawValue: hook) { points.insert(point) }
        }
        let options: ScriptOptions
        do {
            options = try JSONDecoder().decode(ScriptOptions.self, from: Data(report.optionsJSON.utf8))
        } catch {
            pool.unload(key)
            throw ScriptError(file: file, line: nil, message: "setHookOptions: priority and budgetMs must be integers, onFailure 'open' or 'closed'")
        }
        let handler = ScriptHandler(key: key, points: points, notRun: report.inert, options: options, pool: pool) { [weak self] call, handler in
            self?.afterCall(call, handler)
        }
        // The CPU limit stops runaway code; the strictest budget of the script's hook points.
        let budgets = points.map { pipeline.settings.policy(for: handler, at: $0).budget }
        pool.setBudget(key, budgets.min() ?? pipeline.settings.defaultBudget)
        return handler
    }

    private func afterCall(_ call: ScriptWorker.Call, _ handler: ScriptHandler) {
        log(call.logs, script: handler.name)
        switch call.outcome {
        case .exceededMemory:
            unload(handler, because: "grew more than \(settings.hostMemoryAllowance) bytes in a call; unloaded")
        case .timedOut where overranTooOften(handler.name):
            unload(handler, because: "ran past its budget \(settings.overrunLimit) times within \(settings.overrunWindow); unloaded")
        default:
            if let heapBytes = call.heapBytes, heapBytes > settings.heapCapBytes {
                unload(handler, because: "heap grew to \(heapBytes) bytes, past the cap of \(settings.heapCapBytes); unloaded")
            }
        }
    }

    /// Records an overrun; true when the script has reached the limit within the window.
    private func overranTooOften(_ name: String) -> Bool {
        let now = ContinuousClock.now
        return overruns.withLock { overruns in
            var times = overruns[name, default: []].filter { now - $0 < settings.overrunWindow }
            times.append(now)
            overruns[name] = times.count >= settings.overrunLimit ? nil : times
            return times.count >= settings.overrunLimit
        }
    }

    /// Takes a script out of the pipeline until its file changes.
    private func unload(_ handler: ScriptHandler, because reason: String) {
        guard statuses.withLock({ $0[handler.name]?.activeVersion == handler.version }) else { return }
        pipeline.unregister(name: handler.name)
        let failure = ScriptError(file: handler.name + ".js", line: nil, message: reason)
        statuses.withLock { $0[handler.name] = Status(activeVersion: nil, error: failure) }
        logger.error("hook script unloaded", metadata: ["script": "\(handler.name)", "error": "\(failure)"])
    }

    /// Console lines at their level; the calls a script made that this server refused as
    /// warnings, counted by script (`switchboard_script_refused_calls_total`).
    private func log(_ lines: [(level: String, text: String)], script: String) {
        for (level, text) in lines {
            guard level != "refused" else {
                pipeline.metrics.makeCounter(
                    subsystem: "script", name: "refused_calls", help: "Calls scripts made that this server cannot answer, caught or not.",
                    labels: [("script", script)]
                ).increment()
                logger.warning("a script's call was refused: \(text)", metadata: ["script": "\(script)"])
                continue
            }
            logger.log(level: Logger.Level(rawValue: level) ?? .info, "\(text)", metadata: ["script": "\(script)"])
        }
    }

    /// `keyword-filter.js` runs as the handler `keyword-filter`, the folder `myapp` as `myapp`.
    static func handlerName(for file: String) -> String {
        ScriptFolder.scriptSuffixes.first { file.hasSuffix($0) }.map { String(file.dropLast($0.count)) } ?? file
    }

    /// The loose scripts (`name.js`) and project folders (`name`) of a hooks folder.
    /// The executable script hosts are started from (see `HostProcess.executable`).
    public static var hostExecutable: String { HostProcess.executable }

    public static func entries(in directory: String) -> [String] {
        ScriptFolder.entries(in: directory)
    }

    /// Whether `path` is one script or LeanEngine project folder rather than a hooks folder.
    public static func isScript(at path: String) -> Bool {
        ScriptFolder.isScript(at: path)
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}
