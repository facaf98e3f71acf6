import Foundation
import Logging
import SwitchboardHooks
import SwitchboardJS

/// How long from writing a script file to the new code answering calls.
struct ReloadBenchmark {
    struct Row: Encodable {
        var name: String
        var medianMilliseconds: Double
        var p99Milliseconds: Double
        var reloads: Int
    }

    let reloads: Int
    let logger: Logger

    func run() async throws -> Row {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-reload-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/live.js"
        try Self.source(version: 0).write(toFile: path, atomically: true, encoding: .utf8)
        let pipeline = HookPipeline(logger: logger)
        let library = ScriptLibrary(settings: .init(directory: directory), pipeline: pipeline, logger: logger)
        await library.loadAll()
        let watching = Task { try await library.watch() }
        defer { watching.cancel() }
        try await Task.sleep(for: .milliseconds(100))

        let request = MessageReceivedRequest(
            fromPeer: "alice", convId: "c", toPeers: ["bob"], transient: false, bin: false, content: "x",
            receipt: false, timestamp: 0, system: false, sourceIP: "127.0.0.1"
        )
        var samples: [Duration] = []
        let clock = ContinuousClock()
        for version in 1...reloads {
            let expected = "v\(version)"
            let started = clock.now
            try Self.source(version: version).write(toFile: path, atomically: true, encoding: .utf8)
            while await pipeline.run(request).request.content != expected {
                guard clock.now - started < .seconds(10) else { throw ReloadTimeout() }
                try await Task.sleep(for: .microseconds(200))
            }
            samples.append(clock.now - started)
        }
        let statistics = Statistics(samples)
        return Row(
            name: "script reload (write to serving)", medianMilliseconds: statistics.median.microseconds / 1000,
            p99Milliseconds: statistics.p99.microseconds / 1000, reloads: reloads
        )
    }

    struct ReloadTimeout: Error {}

    static func source(version: Int) -> String {
        "AV.Cloud.onIMMessageReceived(() => ({ content: 'v\(version)' }));"
    }
}
