import Foundation
import Logging
import SwitchboardHooks

/// The built-in keyword filter against the same word list as a JavaScript hook with one
/// regular expression, at several list sizes.
struct KeywordBenchmark {
    struct Row: Encodable {
        var words: Int
        var builtinMedianMicroseconds: Double
        var builtinP99Microseconds: Double
        var scriptMedianMicroseconds: Double
        var scriptP99Microseconds: Double
    }

    /// What the operator of a LeanCloud app would have written.
    static func regexScript(_ words: [String]) -> String {
        let list = words.map { "'\($0)'" }.joined(separator: ",")
        return """
            const words = [\(list)];
            const pattern = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\\]\\\\]/g, '\\\\$&')).join('|'), 'gi');
            AV.Cloud.onIMMessageReceived((request) => {
              const typed = JSON.parse(request.params.content);
              if (typeof typed._lctext !== 'string') return {};
              const text = typed._lctext.replace(pattern, '***');
              if (text === typed._lctext) return {};
              typed._lctext = text;
              return { content: JSON.stringify(typed), code: 1 };
            });
            """
    }

    /// `count` made-up words of 4 to 9 letters, the same every run.
    static func words(_ count: Int) -> [String] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        return (0..<count).map { _ in
            String((0..<(4 + Int(next() % 6))).map { _ in Character(Unicode.Scalar(UInt8(97 + next() % 26))) })
        }
    }

    static func builtinFilter(_ words: [String], logger: Logger) throws -> KeywordFilter {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-bench-\(UUID().uuidString).txt").path
        try words.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        return KeywordFilter(settings: .init(file: file), logger: logger)
    }

    let calls: Int
    let logger: Logger

    func run() async throws -> [Row] {
        let request = MessageReceivedRequest(
            fromPeer: "alice", convId: "5f0c1b2a3d4e5f6a7b8c9d0e", toPeers: ["bob"], transient: false, bin: false,
            content: #"{"_lctype":-1,"_lctext":"Well darn it, the meeting moved to noon again; bring the slides and the numbers from last week, please.","_lcattrs":{"mood":"cheerful"}}"#,
            receipt: false, timestamp: 1_763_800_000_000, system: false, sourceIP: "127.0.0.1"
        )
        let timing = HookCostBenchmark(calls: calls, logger: logger, expectsRewrite: true)
        var rows: [Row] = []
        for count in [100, 1000, 10_000] {
            let words = Self.words(count) + ["darn"]
            let builtin = try await timing.measure("built-in, \(count) words", request) { $0.register(try Self.builtinFilter(words, logger: logger)) }
            let script = try await timing.measure("regex script, \(count) words", request) {
                try await HookCostBenchmark.loadScript(Self.regexScript(words), into: $0, logger: logger)
            }
            rows.append(Row(
                words: count, builtinMedianMicroseconds: builtin.medianMicroseconds, builtinP99Microseconds: builtin.p99Microseconds,
                scriptMedianMicroseconds: script.medianMicroseconds, scriptP99Microseconds: script.p99Microseconds
            ))
        }
        return rows
    }
}
