import Foundation
import Logging
import SwitchboardHooks
import SwitchboardJS
import SwitchboardServer

/// What one message costs at `_messageReceived` with each kind of handler.
struct HookCostBenchmark {
    struct Row: Encodable {
        var name: String
        var medianMicroseconds: Double
        var p99Microseconds: Double
        var calls: Int
    }

    static let trivialScript = "AV.Cloud.onIMMessageReceived(() => ({}));"

    /// Parses the typed content, checks a field, rewrites the text.
    static let realisticScript = """
        const banned = ['darn', 'heck', 'frak'];
        AV.Cloud.onIMMessageReceived((request) => {
          const typed = JSON.parse(request.params.content);
          if (typed._lctype !== -1 || typeof typed._lctext !== 'string') return {};
          if (typed._lcattrs && typed._lcattrs.internal) return { drop: true, code: 1, detail: 'internal' };
          let text = typed._lctext;
          for (const word of banned) text = text.split(word).join('***');
          if (text === typed._lctext) return {};
          typed._lctext = text;
          return { content: JSON.stringify(typed) };
        });
        """

    struct PassThrough: SwitchboardPlugin {
        let name = "pass-through"
    }

    let calls: Int
    let logger: Logger
    /// When set, every call must (or must not) rewrite the content.
    var expectsRewrite: Bool?

    /// A typed text message, as an SDK sends one.
    static let request = MessageReceivedRequest(
        fromPeer: "alice", convId: "5f0c1b2a3d4e5f6a7b8c9d0e", toPeers: ["bob"], transient: false, bin: false,
        content: #"{"_lctype":-1,"_lctext":"well darn it, see you at noon","_lcattrs":{"mood":"cheerful"}}"#,
        receipt: false, timestamp: 1_763_800_000_000, system: false, sourceIP: "127.0.0.1"
    )

    func run() async throws -> [Row] {
        let request = Self.request
        var rows: [Row] = []
        rows.append(try await measure("no handlers", request) { _ in })
        rows.append(try await measure("pass-through Swift plugin", request) { $0.register(PluginHandler(PassThrough())) })
        rows.append(try await measure("trivial JavaScript hook", request) { try await Self.loadScript(Self.trivialScript, into: $0, logger: logger) })
        rows.append(try await measure("realistic JavaScript hook", request) { try await Self.loadScript(Self.realisticScript, into: $0, logger: logger) })
        let engine = try await LoopbackEngine.start(logger: logger)
        rows.append(try await measure("trivial remote hook, HTTP to an engine on loopback", request) { pipeline in
            let remote = RemoteEngine(name: "engine", url: engine.url, hookKey: "bench")
            SwitchboardApplication.register([remote], appID: "bench", masterKey: "bench", into: pipeline, logger: logger)
        })
        await engine.stop()
        let words = KeywordBenchmark.words(1000) + ["darn"]
        rows.append(try await measure("built-in keyword filter, 1,000 words", request) { pipeline in
            pipeline.register(try KeywordBenchmark.builtinFilter(words, logger: logger))
        })
        rows.append(await measureHandOff())
        return rows
    }

    /// What a trivial script's call costs in CPU with `inFlight` calls at a time: this
    /// process (the pipeline, the worker, the reply reader) and the script hosts apart. A host
    /// woken for every call pays its waking each time, and so does the reader; one that reads
    /// many calls at once mostly runs JavaScript.
    struct InFlightRow: Encodable {
        var inFlight: Int
        var callsPerSecond: Double
        var serverMicrosecondsPerCall: Double
        var hostsMicrosecondsPerCall: Double
    }

    func measureInFlight(_ counts: [Int], for duration: Duration) async throws -> [InFlightRow] {
        let pipeline = HookPipeline(logger: logger)
        try await Self.loadScript(Self.trivialScript, into: pipeline, logger: logger)
        let request = Self.request
        var rows: [InFlightRow] = []
        for inFlight in counts {
            for _ in 0..<min(calls, 1000) { _ = await pipeline.run(request) }
            let before = try ProcessCPU.of(getpid())
            let started = ContinuousClock.now
            let deadline = started + duration
            let total = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<inFlight {
                    group.addTask {
                        var made = 0
                        while ContinuousClock.now < deadline {
                            _ = await pipeline.run(request)
                            made += 1
                        }
                        return made
                    }
                }
                return await group.reduce(0, +)
            }
            let seconds = (ContinuousClock.now - started) / .seconds(1)
            let cpu = try ProcessCPU.of(getpid()) - before
            rows.append(InFlightRow(
                inFlight: inFlight, callsPerSecond: Double(total) / seconds,
                serverMicrosecondsPerCall: cpu.server * 1e6 / Double(total), hostsMicrosecondsPerCall: cpu.hosts * 1e6 / Double(total)
            ))
        }
        return rows
    }

    /// The floor under a script call: a hop to another thread and back, doing nothing there.
    func measureHandOff() async -> Row {
        let queue = DispatchQueue(label: "switchboard.bench.hand-off")
        let statistics = await Self.sample(calls) {
            await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        }
        return Row(name: "thread hand-off alone, no JavaScript", medianMicroseconds: statistics.median.microseconds,
                   p99Microseconds: statistics.p99.microseconds, calls: calls)
    }

    /// Times `calls` runs of `body` after a warm-up.
    static func sample(_ calls: Int, _ body: () async -> Void) async -> Statistics {
        for _ in 0..<min(calls, 1000) { await body() }
        var samples: [Duration] = []
        samples.reserveCapacity(calls)
        let clock = ContinuousClock()
        for _ in 0..<calls {
            let started = clock.now
            await body()
            samples.append(clock.now - started)
        }
        return Statistics(samples)
    }

    func measure(_ name: String, _ request: MessageReceivedRequest, setUp: (HookPipeline) async throws -> Void) async throws -> Row {
        let pipeline = HookPipeline(logger: logger)
        try await setUp(pipeline)
        let statistics = await Self.sample(calls) { [expectsRewrite] in
            let outcome = await pipeline.run(request)
            precondition(!outcome.isStopped, "the benchmark's handlers never drop")
            precondition(expectsRewrite == nil || (outcome.contentPatch != nil) == expectsRewrite, "\(name) did not filter as expected")
        }
        return Row(name: name, medianMicroseconds: statistics.median.microseconds, p99Microseconds: statistics.p99.microseconds, calls: calls)
    }

    static func loadScript(_ source: String, into pipeline: HookPipeline, logger: Logger, services: ScriptServices = ScriptServices()) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-bench-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try source.write(toFile: directory + "/bench.js", atomically: true, encoding: .utf8)
        let library = ScriptLibrary(settings: .init(directory: directory), pipeline: pipeline, logger: logger, services: services)
        let errors = await library.loadAll()
        precondition(errors.isEmpty, "benchmark script failed to load: \(errors)")
    }
}
