import Foundation
import Logging
import SwitchboardHooks
import SwitchboardJS

/// What other messages pay while one script misbehaves: one `_messageReceived` script turns
/// hostile on the content `boom`, sent five times a second, while another sender's messages
/// go through the same chain fifty times a second. Reports their latency and when the
/// script was unloaded.
struct HostileScriptBenchmark {
    struct Row: Encodable {
        var name: String
        var calls: Int
        var p50Milliseconds: Double
        var p99Milliseconds: Double
        var maxMilliseconds: Double
        /// Seconds from the first hostile message until the script was unloaded; nil if not.
        var unloadedAfterSeconds: Double?
    }

    static let attacks: [(name: String, body: String)] = [
        ("endless Promise chain", "(async () => { for (;;) await 0; })();"),
        ("infinite loop", "for (;;) {}"),
        ("memory bomb", "const kept = []; for (;;) kept.push(new Uint8Array(8 << 20).fill(1));"),
    ]

    let duration: Duration
    let logger: Logger

    func run() async throws -> [Row] {
        var rows: [Row] = []
        for attack in Self.attacks {
            rows.append(try await measure(attack.name, body: attack.body))
        }
        return rows
    }

    private func measure(_ name: String, body: String) async throws -> Row {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-bench-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try """
            AV.Cloud.onIMMessageReceived((request) => {
              if (request.params.content === 'boom') { \(body) }
              return {};
            });
            """.write(toFile: directory + "/hostile.js", atomically: true, encoding: .utf8)
        let pipeline = HookPipeline(logger: logger)
        let library = ScriptLibrary(settings: .init(directory: directory, workers: 2), pipeline: pipeline, logger: logger)
        let errors = await library.loadAll()
        precondition(errors.isEmpty, "benchmark script failed to load: \(errors)")

        let clock = ContinuousClock()
        let started = clock.now
        let end = started + duration
        let attacker = Task {
            while clock.now < end {
                Task { _ = await pipeline.run(Self.request("boom")) }
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
        var samples: [Duration] = []
        var unloadedAt: ContinuousClock.Instant?
        while clock.now < end {
            let sent = clock.now
            _ = await pipeline.run(Self.request("hello"))
            samples.append(clock.now - sent)
            if unloadedAt == nil, !pipeline.hasHandlers(for: .messageReceived) { unloadedAt = clock.now }
            try await Task.sleep(for: .milliseconds(20))
        }
        await attacker.value
        let statistics = Statistics(samples)
        return Row(
            name: name, calls: samples.count, p50Milliseconds: statistics.median.microseconds / 1000,
            p99Milliseconds: statistics.p99.microseconds / 1000, maxMilliseconds: (statistics.samples.last ?? .zero).microseconds / 1000,
            unloadedAfterSeconds: unloadedAt.map { Double(($0 - started).components.attoseconds) / 1e18 + Double(($0 - started).components.seconds) }
        )
    }

    private static func request(_ content: String) -> MessageReceivedRequest {
        MessageReceivedRequest(
            fromPeer: "alice", convId: "5f0c1b2a3d4e5f6a7b8c9d0e", toPeers: ["bob"], transient: false, bin: false, content: content,
            receipt: false, timestamp: 1_763_800_000_000, system: false, sourceIP: "127.0.0.1"
        )
    }
}
