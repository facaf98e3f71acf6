import Foundation
import Logging
import Synchronization
import SwitchboardHooks
import SwitchboardServer
import SwitchboardWire

/// Messages per second stored and delivered, send-to-receipt latency, and the server's CPU
/// time per message and per delivery, over loopback WebSockets speaking protobuf, with and
/// without hooks, in one run. The server runs in a child process so that its CPU time is
/// its own; the clients share the machine with it.
struct EndToEndBenchmark {
    struct Row: Encodable {
        var name: String
        var messagesPerSecond: Double
        var deliveriesPerSecond: Double
        var p50Milliseconds: Double
        var p99Milliseconds: Double
        /// CPU time (user and system, all threads) of the server and its script hosts over the
        /// sending and the drain after it, divided by messages acknowledged and by deliveries.
        var cpuMicrosecondsPerMessage: Double
        var cpuMicrosecondsPerDelivery: Double
        /// The same per message, apart: the server process, and its script host processes.
        var serverCPUMicrosecondsPerMessage: Double
        var hostsCPUMicrosecondsPerMessage: Double
        /// PostgreSQL's CPU time (all its processes) per message, when the servers use it.
        var databaseCPUMicrosecondsPerMessage: Double?
        /// Sends refused or never acknowledged, and acknowledged messages never delivered, over
        /// all rounds: must be 0.
        var failed: Int
        var lost: Int
        var scriptReloads: Int
    }

    /// What the server runs at `_messageReceived`.
    enum Hooks {
        case none
        /// `HookCostBenchmark.trivialScript` alone: what a script call costs by itself.
        case trivialScript
        /// `HookCostBenchmark.realisticScript` and the built-in keyword filter, 1,000 words.
        case realisticScriptAndKeywords
    }

    struct Scenario {
        var name: String
        var senders: Int
        /// Members of each conversation besides its sender.
        var receiversEach: Int
        var hooks: Hooks
        var reloadEvery: Duration?
        /// Receivers acknowledge every message on its own instead of batching their acks once
        /// a second as the JavaScript SDK does.
        var acksEachMessage = false
        /// Server processes on one PostgreSQL database; each sender's receivers are on the
        /// node after its own.
        var nodes = 1
        /// Messages each sender keeps sent and not yet acknowledged: the standard one-to-one
        /// load is 50 pairs with 10 each, as the outside load driver (lc-load-driver) sends.
        var inFlight = 10
        /// Each message carries a random `dt`, as LeanCloud's SDKs send; without, what the
        /// index that finds a message sent again costs shows.
        var clientTokens = true
    }

    let scenarios: [Scenario]
    let duration: Duration
    let rounds: Int
    let logger: Logger

    /// One server: with and without hooks (the first three are compared: what the hooks
    /// cost), one-to-one and in groups.
    static func singleServer(pairs: Int, groupSize: Int) -> [Scenario] {
        [
            Scenario(name: "one-to-one, no hooks", senders: pairs, receiversEach: 1, hooks: .none),
            Scenario(name: "one-to-one, JS hook + keyword filter", senders: pairs, receiversEach: 1, hooks: .realisticScriptAndKeywords),
            Scenario(name: "one-to-one, trivial JS hook alone", senders: pairs, receiversEach: 1, hooks: .trivialScript),
            Scenario(name: "one-to-one, no hooks, an ack per message", senders: pairs, receiversEach: 1, hooks: .none, acksEachMessage: true),
            Scenario(name: "one-to-one, no hooks, no dt", senders: pairs, receiversEach: 1, hooks: .none, clientTokens: false),
            Scenario(
                name: "one-to-one, hooks, scripts rewritten every 100 ms", senders: pairs, receiversEach: 1, hooks: .realisticScriptAndKeywords,
                reloadEvery: .milliseconds(100)
            ),
            Scenario(name: "group of \(groupSize), no hooks", senders: 1, receiversEach: groupSize - 1, hooks: .none, inFlight: 1),
            Scenario(
                name: "group of \(groupSize), JS hook + keyword filter", senders: 1, receiversEach: groupSize - 1, hooks: .realisticScriptAndKeywords,
                inFlight: 1
            ),
        ]
    }

    /// One node against two on the same PostgreSQL database, one-to-one with no hooks; with
    /// two, every message crosses from one node to the other.
    static func nodes(pairs: Int, groupSize: Int) -> [Scenario] {
        [
            Scenario(name: "one-to-one, one node", senders: pairs, receiversEach: 1, hooks: .none),
            Scenario(name: "one-to-one, two nodes", senders: pairs, receiversEach: 1, hooks: .none, nodes: 2),
            Scenario(name: "group of \(groupSize), one node", senders: 1, receiversEach: groupSize - 1, hooks: .none, inFlight: 1),
            Scenario(name: "group of \(groupSize), two nodes", senders: 1, receiversEach: groupSize - 1, hooks: .none, nodes: 2, inFlight: 1),
        ]
    }

    func run() async throws -> [Row] {
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
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let hooksDirectory = directory + "/hooks"
        try FileManager.default.createDirectory(atPath: hooksDirectory, withIntermediateDirectories: true)
        switch scenario.hooks {
        case .none: break
        case .trivialScript:
            try HookCostBenchmark.trivialScript.write(toFile: hooksDirectory + "/trivial.js", atomically: true, encoding: .utf8)
        case .realisticScriptAndKeywords:
            try HookCostBenchmark.realisticScript.write(toFile: hooksDirectory + "/realistic.js", atomically: true, encoding: .utf8)
            try (KeywordBenchmark.words(1000) + ["darn"]).joined(separator: "\n").write(toFile: directory + "/keywords.txt", atomically: true, encoding: .utf8)
        }
        // The nodes share the folder: the same scripts and keyword list, as an operator
        // deploys them to each.
        var servers: [ServerProcess] = []
        for _ in 0..<scenario.nodes { servers.append(try await ServerProcess(directory: directory)) }
        defer { servers.forEach { $0.stop() } }
        let ports = servers.map(\.port)

        let tally = Tally()
        // Receivers first, online before anything is sent; then each sender logs in and starts
        // its conversation, all before the clock starts.
        var listening: [Task<Void, Never>] = []
        var senders: [Sender] = []
        for index in 0..<scenario.senders {
            let names = (0..<scenario.receiversEach).map { "r\(index)-\($0)" }
            for name in names {
                let client = try await BenchClient.connect(port: ports[(index + 1) % ports.count])
                var stream = client.received.makeAsyncIterator()
                try await Self.login(name, client, &stream)
                let acks = scenario.acksEachMessage ? nil : AckThrottle(client: client)
                listening.append(Task { [stream] in await Self.receive(client, stream, acks, tally) })
            }
            senders.append(try await Sender.start(as: "s\(index)", with: names, port: ports[index % ports.count]))
        }
        let reloading = scenario.reloadEvery.map { every in
            Task { await Self.rewriteScripts(in: hooksDirectory, every: every, tally: tally) }
        }
        let cpuBefore = try servers.map { try $0.cpu() }.reduce(.zero, +)
        let databaseCPUBefore = try ProcessCPU.seconds(ofProcessesNamed: "postgres")
        let deadline = ContinuousClock.now + duration
        await withTaskGroup(of: Void.self) { group in
            for sender in senders {
                group.addTask { await sender.send(until: deadline, inFlight: scenario.inFlight, clientTokens: scenario.clientTokens, tally: tally) }
            }
        }
        reloading?.cancel()
        // What was acknowledged has a moment to arrive, and the receivers' last batched acks
        // go out (their cost counts).
        try await Task.sleep(for: AckThrottle.interval + .milliseconds(500))
        let cpu = try servers.map { try $0.cpu() }.reduce(.zero, +) - cpuBefore
        let databaseCPU = try ProcessCPU.seconds(ofProcessesNamed: "postgres") - databaseCPUBefore
        for sender in senders { sender.client.close() }
        for task in listening { task.cancel() }
        servers.forEach { $0.stop() }

        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let counts = tally.counts
        let latency = Statistics(counts.latencies)
        return Row(
            name: scenario.name, messagesPerSecond: Double(counts.acked) / seconds, deliveriesPerSecond: Double(counts.delivered) / seconds,
            p50Milliseconds: latency.median.microseconds / 1000, p99Milliseconds: latency.p99.microseconds / 1000,
            cpuMicrosecondsPerMessage: cpu.total * 1e6 / Double(max(counts.acked, 1)), cpuMicrosecondsPerDelivery: cpu.total * 1e6 / Double(max(counts.delivered, 1)),
            serverCPUMicrosecondsPerMessage: cpu.server * 1e6 / Double(max(counts.acked, 1)), hostsCPUMicrosecondsPerMessage: cpu.hosts * 1e6 / Double(max(counts.acked, 1)),
            databaseCPUMicrosecondsPerMessage: ServerProcess.usesPostgres ? databaseCPU * 1e6 / Double(max(counts.acked, 1)) : nil,
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

    /// Records how long each message took to arrive and acknowledges it: through `acks` as the
    /// JavaScript SDK does, or, without it, each message at once.
    private static func receive(_ client: BenchClient, _ stream: AsyncStream<GenericCommand>.Iterator, _ acks: AckThrottle?, _ tally: Tally) async {
        var stream = stream
        while !Task.isCancelled, let command = await stream.next() {
            guard command.cmd == .direct else { continue }
            let direct = command.directMessage
            if let sentAt = direct.msg.split(separator: " ").last.flatMap({ UInt64($0.prefix { $0.isNumber }) }) {
                tally.delivered(after: .nanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - sentAt)))
            }
            if let acks {
                acks.acknowledge(direct)
            } else {
                client.send(AckThrottle.ack(direct.cid, direct.timestamp...direct.timestamp))
            }
        }
        client.close()
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

/// A client logged in with a conversation started, ready to send.
private struct Sender: Sendable {
    let client: BenchClient
    let cid: String

    static func start(as clientID: String, with members: [String], port: Int) async throws -> Sender {
        let client = try await BenchClient.connect(port: port)
        var stream = client.received.makeAsyncIterator()
        try await EndToEndBenchmark.login(clientID, client, &stream)
        var start = GenericCommand()
        start.cmd = .conv
        start.op = .start
        start.i = 2
        start.convMessage.m = members
        client.send(start)
        while let reply = await stream.next() {
            if reply.cmd == .conv, reply.op == .started { return Sender(client: client, cid: reply.convMessage.cid) }
        }
        throw BenchClient.Closed()
    }

    /// Sends typed text messages, keeping `inFlight` of them sent and not yet acknowledged,
    /// each in a frame (and a write) of its own and, with `clientTokens`, a random token
    /// (`dt`) as LeanCloud's SDK sends, which the server keeps to store a message sent again
    /// only once.
    func send(until deadline: ContinuousClock.Instant, inFlight: Int, clientTokens: Bool, tally: Tally) async {
        var stream = client.received.makeAsyncIterator()
        var serial: Int32 = 3
        var unacknowledged = 0
        while true {
            while unacknowledged < inFlight, ContinuousClock.now < deadline {
                var direct = GenericCommand()
                direct.cmd = .direct
                direct.i = serial
                direct.directMessage.cid = cid
                direct.directMessage.msg = #"{"_lctype":-1,"_lctext":"well darn it, see you at noon \#(DispatchTime.now().uptimeNanoseconds)"}"#
                if clientTokens { direct.directMessage.dt = UUID().uuidString.lowercased() }
                client.send(direct)
                serial += 1
                unacknowledged += 1
            }
            guard unacknowledged > 0, let reply = await stream.next() else { return }
            guard reply.cmd == .ack else { continue }
            tally.sent(accepted: !reply.ackMessage.hasCode)
            unacknowledged -= 1
        }
    }
}
