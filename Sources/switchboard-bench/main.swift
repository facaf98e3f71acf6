import Foundation
import Logging

// switchboard-bench [--smoke] [--json FILE]
// Prints a table of what hooks cost per message and how fast scripts reload, and writes
// the same figures as JSON. Build in release mode for real figures:
//   swift run -c release switchboard-bench --json bench.json
let arguments = CommandLine.arguments.dropFirst()
if arguments.first == MemoryBenchmark.serverArgument, let directory = arguments.dropFirst().first {
    try await MemoryBenchmark.serve(directory: directory)
    exit(0)
}
let smoke = arguments.contains("--smoke")
let jsonPath = arguments.firstIndex(of: "--json").flatMap { arguments.index(after: $0) < arguments.endIndex ? arguments[arguments.index(after: $0)] : nil }
var logger = Logger(label: "switchboard-bench")
logger.logLevel = .critical

struct Report: Encodable {
    var smoke: Bool
    var hookCost: [HookCostBenchmark.Row]
    var reload: ReloadBenchmark.Row
    var keywords: [KeywordBenchmark.Row]
    var endToEnd: [EndToEndBenchmark.Row]
    var memory: MemoryBenchmark.Row
}

let hookCost = try await HookCostBenchmark(calls: smoke ? 200 : 50_000, logger: logger).run()
let reload = try await ReloadBenchmark(reloads: smoke ? 3 : 50, logger: logger).run()
let keywords = try await KeywordBenchmark(calls: smoke ? 200 : 5_000, logger: logger).run()
let endToEnd = try await EndToEndBenchmark(
    duration: smoke ? .milliseconds(500) : .seconds(5), pairs: smoke ? 2 : 50, groupSize: smoke ? 5 : 100, logger: logger
).run()
let memory = try await MemoryBenchmark(clients: smoke ? 200 : 10_000, logger: logger).run()

print("Hook cost per message at _messageReceived (\(hookCost.first?.calls ?? 0) calls each)")
print("  handler                                median µs    p99 µs")
for row in hookCost {
    print("  " + row.name.padding(toLength: 38, withPad: " ", startingAt: 0)
        + String(format: "%10.2f%10.2f", row.medianMicroseconds, row.p99Microseconds))
}
print("Keyword filter per message, built-in against a JavaScript regular expression (median / p99 µs)")
print("  words      built-in              regex script          script ÷ built-in")
for row in keywords {
    print(String(format: "  %-8d %9.2f / %-9.2f %9.2f / %-9.2f %8.1f×", row.words, row.builtinMedianMicroseconds, row.builtinP99Microseconds,
                 row.scriptMedianMicroseconds, row.scriptP99Microseconds, row.scriptMedianMicroseconds / row.builtinMedianMicroseconds))
}
print("End to end over loopback WebSockets (protobuf), \(smoke ? "0.5" : "5") s each")
print("  scenario                                             msg/s   deliveries/s   p50 ms   p99 ms  failed  lost  reloads")
for row in endToEnd {
    print("  " + row.name.padding(toLength: 50, withPad: " ", startingAt: 0)
        + String(format: "%8.0f %14.0f %8.2f %8.2f %7d %5d %8d", row.messagesPerSecond, row.deliveriesPerSecond, row.p50Milliseconds,
                 row.p99Milliseconds, row.failed, row.lost, row.scriptReloads))
}
if let plain = endToEnd.first, let hooked = endToEnd.dropFirst().first {
    print(String(format: "  with hooks, one-to-one throughput is %.0f%% of the hook-free figure", 100 * hooked.messagesPerSecond / plain.messagesPerSecond))
}
print(String(format: "Script reload, write to serving (%d reloads): median %.1f ms, p99 %.1f ms", reload.reloads, reload.medianMilliseconds, reload.p99Milliseconds))

print(String(format: "Server resident memory: idle %.1f MB, with %d clients logged in %.1f MB (%.1f KB a client)",
             memory.idleMegabytes, memory.clients, memory.loadedMegabytes, memory.kilobytesPerClient))

if let jsonPath {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(Report(smoke: smoke, hookCost: hookCost, reload: reload, keywords: keywords, endToEnd: endToEnd, memory: memory)).write(to: URL(fileURLWithPath: jsonPath))
    print("wrote \(jsonPath)")
}
