import Foundation
import Logging
import Synchronization
import SwitchboardHooks
import SwitchboardServer
import SwitchboardWire

/// Messages per second stored and delivered, and send-to-receipt latency, over loopback
/// WebSockets speaking protobuf, with and without hooks, in one run.
struct EndToEndBenchmark {
    struct Row: Encodable {
        var name: String
        var messagesPerSecond: Double
        var deliveriesPerSecond: Double
        var p50Milliseconds: Double
        var p99Milliseconds: Double
        /// Sends refused or never acknowledged, and acknowledged messages never delivered, over
        /// all rounds: must be 0.
        var failed: Int
        var lost: Int
        var scriptReloads: Int
    }

    struct Scenario {
        var name: String
        var senders: Int
        /// Members of each conversation besides its sender.
        var receiversEach: Int
        var hooks: Bool
        var reloadEvery: Duration?
    }

    let duration: Duration
    let rounds: Int
    let pairs: Int
    let groupSize: Int
    let logger: Logger

    func run() async throws -> [Row] {
        let scenarios = [
            Scenario(name: "one-to-one, no hooks", senders: pairs, receiversEach: 1, hooks: false),
            Scenario(name: "one-to-one, JS hook + keyword filter", senders: pairs, receiversEach: 1, hooks: true),
            Scenario(name: "one-to-one, hooks, scripts rewritten every 100 ms", senders: pairs, receiversEach: 1, hooks: true, reloadEvery: .milliseconds(100)),
            Scenario(name: "group of \(groupSize), no hooks", senders: 1, receiversEach: groupSize - 1, hooks: false),
            Scenario(name: "group of \(groupSize), JS hook + keyword filter", senders: 1, receiversEach: groupSize - 1, hooks: true),
        ]
        // Rounds alternate the scenarios so that a noisy neighbour hits them alike; each
        // scenario reports its median round, with failures and losses summed over all.
        var runs = Array(repeating: [Row](), count: scenarios.count)
        for _ in 0..<rounds {
            for (index, scenario) in scenarios.enumerated() { runs[index].append(try await measure(scenario)) }
        }
        return runs.map { rounds in
            var median = rounds.sorted { $0.messagesPerSecond < $1.messagesPerSecond }[rounds.count / 2]
            median.failed = rounds.map(\.failed).reduce(0, +)
            median.lost = rounds.map(\.lost).reduce(0, +)
            median.scriptReloads = rounds.map(\.scriptReloads).reduce(0, +)
            return median
        }
    }

    private func measure(_ scenario: Scenario) async throws -> Row {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-e2e-\(UUID().uuidString)").path
        var config = ServerConfig()
        config.port = 0
        config.dataDirectory = directory
        config.hooksDirectory = directory + "/hooks"
        config.keywordFilter = nil
        try FileManager.default.createDirectory(atPath: config.hooksDirectory, withIntermediateDirectories: true)
        if scenario.hooks {
            try HookCostBenchmark.realisticScript.write(toFile: config.hooksDirectory + "/realistic.js", atomically: true, encoding: .utf8)
            let words = directory + "/keywords.txt"
            try (KeywordBenchmark.words(1000) + ["darn"]).joined(separator: "\n").write(toFile: words, atomically: true, encoding: .utf8)
            config.keywordFilter = .init(file: words)
        }
        let application = try SwitchboardApplication(config: config, logger: logger)
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let group = try await application.serviceGroup { portContinuation.yield($0) }
        let server = Task { try await group.run() }
        var bound = 0
        for await listening in ports { bound = listening; break }
        let port = bound

        let tally = Tally()
        let deadline = ContinuousClock.now + duration
        // Receivers first, online before anything is sent.
        var receivers: [[String]] = []
        var listening: [Task<Void, Never>] = []
        for sender in 0..<scenario.senders {
            let names = (0..<scenario.receiversEach).map { "r\(sender)-\($0)" }
            receivers.append(names)
            for name in names {
                let client = try await BenchClient.connect(port: port)
                var stream = client.received.makeAsyncIterator()
                try await Self.login(name, client, &stream)
                listening.append(Task { [stream] in await Self.receive(client, stream, tally) })
            }
        }
        let hooksDirectory = config.hooksDirectory
        let reloading = scenario.reloadEvery.map { every in
            Task { await Self.rewriteScripts(in: hooksDirectory, every: every, tally: tally) }
        }
        try await withThrowingTaskGroup(of: Void.self) { senders in
            for (index, names) in receivers.enumerated() {
                senders.addTask { try await Self.send(as: "s\(index)", to: names, port: port, until: deadline, tally: tally) }
            }
            try await senders.waitForAll()
        }
        reloading?.cancel()
        // What was acknowledged has a moment to arrive.
        try await Task.sleep(for: .milliseconds(500))
        for task in listening { task.cancel() }
        await group.triggerGracefulShutdown()
        _ = try? await server.value
        try? FileManager.default.removeItem(atPath: directory)

        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let counts = tally.counts
        let latency = Statistics(counts.latencies)
        return Row(
            name: scenario.name, messagesPerSecond: Double(counts.acked) / seconds, deliveriesPerSecond: Double(counts.delivered) / seconds,
            p50Milliseconds: latency.median.microseconds / 1000, p99Milliseconds: latency.p99.microseconds / 1000,
            failed: counts.failed, lost: max(0, counts.acked * scenario.receiversEach - counts.delivered), scriptReloads: counts.reloads
        )
    }

    static func login(_ clientID: String, _ client: BenchClient, _ stream: inout AsyncStream<GenericCommand>.Iterator) async throws {
        var open = GenericCommand()
        open.cmd = .session
        open.op = .open
        open.appID = ServerConfig().appID
        open.peerID = clientID
        open.i = 1
        client.send(open)
        while let reply = await stream.next() {
            if reply.cmd == .session, reply.op == .opened { return }
            if reply.cmd == .session || reply.cmd == .error { throw BenchClient.Closed() }
        }
        throw BenchClient.Closed()
    }

    /// Acknowledges each message as an SDK does and records how long it took to arrive.
    private static func receive(_ client: BenchClient, _ stream: AsyncStream<GenericCommand>.Iterator, _ tally: Tally) async {
        var stream = stream
        while !Task.isCancelled, let command = await stream.next() {
            guard command.cmd == .direct else { continue }
            let direct = command.directMessage
            if let sentAt = direct.msg.split(separator: " ").last.flatMap({ UInt64($0.prefix { $0.isNumber }) }) {
                tally.delivered(after: .nanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - sentAt)))
            }
            var ack = GenericCommand()
            ack.cmd = .ack
            ack.ackMessage.cid = direct.cid
            ack.ackMessage.fromts = direct.timestamp
            ack.ackMessage.tots = direct.timestamp
            client.send(ack)
        }
        client.close()
    }

    /// Sends typed text messages one after another, each once the previous is acknowledged.
    private static func send(as clientID: String, to members: [String], port: Int, until deadline: ContinuousClock.Instant, tally: Tally) async throws {
        let client = try await BenchClient.connect(port: port)
        defer { client.close() }
        var stream = client.received.makeAsyncIterator()
        try await login(clientID, client, &stream)
        var start = GenericCommand()
        start.cmd = .conv
        start.op = .start
        start.i = 2
        start.convMessage.m = members
        client.send(start)
        var cid = ""
        while let reply = await stream.next() {
            if reply.cmd == .conv, reply.op == .started { cid = reply.convMessage.cid; break }
        }
        var serial: Int32 = 3
        while ContinuousClock.now < deadline {
            var direct = GenericCommand()
            direct.cmd = .direct
            direct.i = serial
            direct.directMessage.cid = cid
            direct.directMessage.msg = #"{"_lctype":-1,"_lctext":"well darn it, see you at noon \#(DispatchTime.now().uptimeNanoseconds)"}"#
            client.send(direct)
            serial += 1
            while let reply = await stream.next() {
                guard reply.cmd == .ack else { continue }
                tally.sent(accepted: !reply.ackMessage.hasCode)
                break
            }
        }
    }

    private static func rewriteScripts(in directory: String, every interval: Duration, tally: Tally) async {
        var version = 0
        while (try? await Task.sleep(for: interval)) != nil {
            version += 1
            let source = HookCostBenchmark.realisticScript + "\n// version \(version)\n"
            try? source.write(toFile: directory + "/realistic.js", atomically: true, encoding: .utf8)
            tally.reloaded()
        }
    }
}

/// Counts shared by the benchmark's clients.
final class Tally: Sendable {
    struct Counts {
        var acked = 0
        var failed = 0
        var delivered = 0
        var reloads = 0
        var latencies: [Duration] = []
    }

    private let state = Mutex(Counts())

    var counts: Counts { state.withLock { $0 } }

    func sent(accepted: Bool) {
        state.withLock { if accepted { $0.acked += 1 } else { $0.failed += 1 } }
    }

    func delivered(after latency: Duration) {
        state.withLock {
            $0.delivered += 1
            $0.latencies.append(latency)
        }
    }

    func reloaded() {
        state.withLock { $0.reloads += 1 }
    }
}
