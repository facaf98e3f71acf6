import Foundation
import Logging
import SwitchboardJS

// switchboard-bench [--smoke] [--only SECTION[,SECTION...]] [--scenario TEXT] [--json FILE]
// Measures what hooks cost per message, the keyword filter against a script, end-to-end
// throughput, script reload time, the server's memory, other messages' latency while a
// script misbehaves, and how fast `leancloud import` stores an export (section `import`);
// prints each section as it finishes and writes the figures as JSON.
// Build in release mode for real figures (script hosts run the `switchboard` beside it):
//   swift build -c release && .build/release/switchboard-bench
let arguments = CommandLine.arguments.dropFirst()
if arguments.first == ServerProcess.argument, let directory = arguments.dropFirst().first {
    try await ServerProcess.serve(directory: directory)
    exit(0)
}
if arguments.first == ImportBenchmark.argument, arguments.count == 3 {
    try await ImportBenchmark.importChild(export: arguments[arguments.startIndex + 1], config: arguments[arguments.startIndex + 2])
    exit(0)
}

// Without the host executable every script call fails open, and the hook rows would
// measure messages that ran no script (a build of this product alone has none).
guard FileManager.default.isExecutableFile(atPath: ScriptLibrary.hostExecutable) else {
    print("switchboard-bench: script hosts run \(ScriptLibrary.hostExecutable), which is missing: build it too (swift build -c release)")
    exit(2)
}

func value(after flag: String) -> String? {
    arguments.firstIndex(of: flag).flatMap { arguments.index(after: $0) < arguments.endIndex ? arguments[arguments.index(after: $0)] : nil }
}

let sections = ["hooks", "data", "keywords", "e2e", "nodes", "reload", "memory", "hostile", "import"]
let smoke = arguments.contains("--smoke")
let jsonPath = value(after: "--json")
let only = value(after: "--only").map { Set($0.split(separator: ",").map(String.init)) } ?? Set(sections)
/// Runs only the end-to-end scenarios whose names contain this, to profile or compare one.
let scenarioFilter = value(after: "--scenario")
if let unknown = only.subtracting(sections).first {
    FileHandle.standardError.write(Data("switchboard-bench: unknown section '\(unknown)'; sections are \(sections.joined(separator: ", "))\n".utf8))
    exit(2)
}
var logger = Logger(label: "switchboard-bench")
logger.logLevel = .critical

struct Report: Encodable {
    var smoke: Bool
    var hookCost: [HookCostBenchmark.Row]?
    var hookCallsInFlight: [HookCostBenchmark.InFlightRow]?
    var appData: [AppDataBenchmark.Row]?
    var keywords: [KeywordBenchmark.Row]?
    var endToEnd: [EndToEndBenchmark.Row]?
    var nodes: [EndToEndBenchmark.Row]?
    var reload: ReloadBenchmark.Row?
    var memory: MemoryBenchmark.Row?
    var hostile: [HostileScriptBenchmark.Row]?
    var leanCloudImport: [ImportBenchmark.Row]?
}
var report = Report(smoke: smoke)

if only.contains("hooks") {
    let hookCost = HookCostBenchmark(calls: smoke ? 200 : 50_000, logger: logger)
    let rows = try await hookCost.run()
    print("Hook cost per message at _messageReceived (\(rows.first?.calls ?? 0) calls each)")
    print("  handler                                median µs    p99 µs")
    for row in rows {
        print("  " + row.name.padding(toLength: 38, withPad: " ", startingAt: 0)
            + String(format: "%10.2f%10.2f", row.medianMicroseconds, row.p99Microseconds))
    }
    report.hookCost = rows
    let inFlight = try await hookCost.measureInFlight(smoke ? [1, 10] : [1, 10, 100, 500], for: smoke ? .milliseconds(200) : .seconds(3))
    print("A trivial script's call, CPU µs by calls at a time (this process, which runs the pipeline, and the script hosts)")
    print("  in flight     calls/s    here µs   hosts µs   total µs")
    for row in inFlight {
        print(String(format: "  %9d %11.0f %10.2f %10.2f %10.2f", row.inFlight, row.callsPerSecond, row.serverMicrosecondsPerCall,
                     row.hostsMicrosecondsPerCall, row.serverMicrosecondsPerCall + row.hostsMicrosecondsPerCall))
    }
    report.hookCallsInFlight = inFlight
}

if only.contains("data") {
    let rows = try await AppDataBenchmark(documents: smoke ? 10_000 : 1_000_000, calls: smoke ? 200 : 20_000, logger: logger).run()
    print("App data look-ups in a class of \(rows.first?.documents ?? 0) objects (SQLite)")
    print("  look-up                                        median µs    p99 µs")
    for row in rows {
        print("  " + row.name.padding(toLength: 46, withPad: " ", startingAt: 0)
            + String(format: "%10.2f%10.2f", row.medianMicroseconds, row.p99Microseconds))
    }
    report.appData = rows
}

if only.contains("keywords") {
    let rows = try await KeywordBenchmark(calls: smoke ? 200 : 5_000, logger: logger).run()
    print("Keyword filter per message, built-in against a JavaScript regular expression (median / p99 µs)")
    print("  words      built-in              regex script          script ÷ built-in")
    for row in rows {
        print(String(format: "  %-8d %9.2f / %-9.2f %9.2f / %-9.2f %8.1f×", row.words, row.builtinMedianMicroseconds, row.builtinP99Microseconds,
                     row.scriptMedianMicroseconds, row.scriptP99Microseconds, row.scriptMedianMicroseconds / row.builtinMedianMicroseconds))
    }
    report.keywords = rows
}

/// Runs `scenarios` end to end and prints a row for each.
func endToEnd(_ scenarios: [EndToEndBenchmark.Scenario]) async throws -> [EndToEndBenchmark.Row] {
    let chosen = scenarios.filter { scenario in scenarioFilter.map(scenario.name.contains) ?? true }
    let rows = try await EndToEndBenchmark(
        scenarios: chosen, duration: smoke ? .milliseconds(500) : .seconds(3), rounds: smoke ? 1 : 3, logger: logger
    ).run()
    print("End to end over loopback WebSockets (protobuf), \(smoke ? "one round of 0.5 s" : "median of three rounds of 3 s") each;"
        + " server CPU (its script hosts included) per message and per delivery"
        + (ServerProcess.usesPostgres ? "; PostgreSQL's CPU per message" : ""))
    print("  scenario                                             msg/s   deliveries/s   p50 ms   p99 ms  CPU µs/msg (server + hosts)  CPU µs/delivery  failed  lost  reloads"
        + (ServerProcess.usesPostgres ? "  database µs/msg" : ""))
    for row in rows {
        print("  " + row.name.padding(toLength: 50, withPad: " ", startingAt: 0)
            + String(format: "%8.0f %14.0f %8.2f %8.2f %11.1f (%5.1f + %5.1f) %16.1f %7d %5d %8d", row.messagesPerSecond, row.deliveriesPerSecond,
                     row.p50Milliseconds, row.p99Milliseconds, row.cpuMicrosecondsPerMessage, row.serverCPUMicrosecondsPerMessage,
                     row.hostsCPUMicrosecondsPerMessage, row.cpuMicrosecondsPerDelivery, row.failed, row.lost, row.scriptReloads)
            + (row.databaseCPUMicrosecondsPerMessage.map { String(format: "%17.1f", $0) } ?? ""))
    }
    return rows
}

if only.contains("e2e") {
    let rows = try await endToEnd(EndToEndBenchmark.singleServer(pairs: smoke ? 2 : 50, groupSize: smoke ? 5 : 100))
    if scenarioFilter == nil, rows.count >= 3 {
        let (plain, hooked, trivial) = (rows[0], rows[1], rows[2])
        for (what, row) in [("the script and the keyword filter", hooked), ("a trivial script alone", trivial)] {
            print("  with \(what), one-to-one throughput is " + String(format: "%.0f%% of the hook-free figure, at %.1f CPU µs more a message",
                         100 * row.messagesPerSecond / plain.messagesPerSecond, row.cpuMicrosecondsPerMessage - plain.cpuMicrosecondsPerMessage))
        }
    }
    report.endToEnd = rows
}

if only.contains("nodes") {
    if ServerProcess.usesPostgres {
        report.nodes = try await endToEnd(EndToEndBenchmark.nodes(pairs: smoke ? 2 : 50, groupSize: smoke ? 5 : 100))
    } else {
        print("One node against two: skipped, it needs SWITCHBOARD_BENCH_POSTGRES_URL (see scripts/with-postgres)")
    }
}

if only.contains("reload") {
    let row = try await ReloadBenchmark(reloads: smoke ? 3 : 50, logger: logger).run()
    print(String(format: "Script reload, write to serving (%d reloads): median %.1f ms, p99 %.1f ms", row.reloads, row.medianMilliseconds, row.p99Milliseconds))
    report.reload = row
}

if only.contains("memory") {
    let row = try await MemoryBenchmark(clients: smoke ? 200 : 10_000, logger: logger).run()
    print(String(format: "Server resident memory: idle %.1f MB, with %d clients logged in %.1f MB (%.1f KB a client); CPU while they idle %.1f%% of a core",
                 row.idleMegabytes, row.clients, row.loadedMegabytes, row.kilobytesPerClient, row.idleCPUPercent))
    report.memory = row
}

if only.contains("hostile") {
    let rows = try await HostileScriptBenchmark(duration: smoke ? .seconds(1) : .seconds(6), logger: logger).run()
    print("Other messages' hook latency while a script turns hostile on one message in ten (5/s against 50/s)")
    print("  attack                       calls    p50 ms    p99 ms    max ms   unloaded after")
    for row in rows {
        print("  " + row.name.padding(toLength: 26, withPad: " ", startingAt: 0)
            + String(format: "%8d %9.2f %9.2f %9.2f   ", row.calls, row.p50Milliseconds, row.p99Milliseconds, row.maxMilliseconds)
            + (row.unloadedAfterSeconds.map { String(format: "%.1f s", $0) } ?? "not unloaded"))
    }
    report.hostile = rows
}

if only.contains("import") {
    let rows = try await ImportBenchmark(runs: smoke ? [(2_000, .byTime)] : [(100_000, .byTime), (1_000_000, .byTime), (1_000_000, .random)]).run()
    print("LeanCloud import of an export folder (\(ImportBenchmark.messagesPerConversation) messages a conversation): messages stored a second,"
        + " and the import process's peak resident memory")
    print("  store       message ids       messages  conversations   seconds   messages/s   peak RSS MB")
    for row in rows {
        print("  " + row.store.padding(toLength: 12, withPad: " ", startingAt: 0) + row.messageIDs.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)
            + String(format: "%12d %14d %9.2f %12.0f %13.1f", row.messages, row.conversations, row.seconds, row.messagesPerSecond, row.peakResidentMegabytes))
    }
    report.leanCloudImport = rows
}

if let jsonPath {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(report).write(to: URL(fileURLWithPath: jsonPath))
    print("wrote \(jsonPath)")
}
