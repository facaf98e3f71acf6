import ArgumentParser
import Foundation
import SwitchboardCLI

/// `switchboard leancloud import` of an export folder: messages stored a second, and the
/// import's peak resident memory at two sizes (flat when the import streams). The import
/// runs in a child process (this executable, started with `argument`), the command line's
/// own code, so that its memory is its own; into SQLite, and PostgreSQL with
/// `SWITCHBOARD_BENCH_POSTGRES_URL`.
struct ImportBenchmark {
    struct Row: Encodable {
        var store: String
        var messageIDs: IDs
        var messages: Int
        var conversations: Int
        var seconds: Double
        var messagesPerSecond: Double
        var peakResidentMegabytes: Double
    }

    /// How the export's message ids run: by time, as Switchboard's do (the index on them
    /// grows at its end), or at random (every insert lands anywhere in it).
    enum IDs: String, Encodable {
        case byTime = "by time"
        case random
    }

    static let argument = "--bench-import"
    /// Messages per conversation in the export written.
    static let messagesPerConversation = 100

    let runs: [(messages: Int, ids: IDs)]

    func run() async throws -> [Row] {
        var rows: [Row] = []
        for (messages, ids) in runs {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-bench-import-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let conversations = max(1, messages / Self.messagesPerConversation)
            // Ids new to the database: PostgreSQL's may hold an earlier run's.
            let run = UUID().uuidString.prefix(8).lowercased()
            try Self.writeExport(at: directory + "/export", messages: messages, conversations: conversations, run: String(run), ids: ids)
            for (store, postgres) in [("SQLite", nil), ("PostgreSQL", ServerProcess.postgresURL)] where store == "SQLite" || postgres != nil {
                let config = directory + "/\(store).yaml"
                let url = postgres.map { ", postgres: { url: \"\($0)\" }" } ?? ""
                try "storage: { dataDir: \(directory)/\(store)\(url) }\n".write(toFile: config, atomically: true, encoding: .utf8)
                let measured = try Self.measure(export: directory + "/export", config: config)
                rows.append(Row(
                    store: store, messageIDs: ids, messages: messages, conversations: conversations, seconds: measured.seconds,
                    messagesPerSecond: Double(messages) / measured.seconds, peakResidentMegabytes: Double(measured.peakBytes) / 1_048_576
                ))
            }
        }
        return rows
    }

    /// Runs the import in a child and reads what it reports of itself.
    private static func measure(export: String, config: String) throws -> (seconds: Double, peakBytes: Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = [argument, export, config]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let line = text.split(separator: "\n").last(where: { $0.hasPrefix("measured ") }),
              case let fields = line.split(separator: " "), fields.count == 3,
              let seconds = Double(fields[1]), let peak = Int(fields[2])
        else {
            throw ValidationError("the import did not finish cleanly (status \(process.terminationStatus)):\n\(text)")
        }
        return (seconds, peak)
    }

    /// The child's side: `switchboard leancloud import EXPORT -c CONFIG`, then `measured
    /// SECONDS PEAK_BYTES` (its wall time, and VmHWM from /proc).
    static func importChild(export: String, config: String) async throws {
        let command = try SwitchboardCommand.parseAsRoot(["leancloud", "import", export, "-c", config])
        guard var importing = command as? any AsyncParsableCommand else { throw ValidationError("leancloud import is not an async command") }
        let start = ContinuousClock.now
        do {
            try await importing.run()
        } catch {
            // Its summary lines said what did not come across.
            print("the import failed: \(error)")
            exit(1)
        }
        let elapsed = ContinuousClock.now - start
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let kilobytes = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        print("measured \(elapsed.microseconds / 1e6) \(kilobytes * 1024)")
    }

    /// An export folder as `switchboard leancloud export` writes one: conversations of two to
    /// five members, and their history, typed text messages as LeanCloud's SDKs send them
    /// (some mentioning a member, some edited), interleaved across conversations in time
    /// order, at most 100,000 a file.
    static func writeExport(at folder: String, messages: Int, conversations: Int, run: String, ids: IDs) throws {
        for sub in ["classes", "conversations", "messages"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true)
        }
        let manifest = #"{"format":"switchboard-leancloud-export","version":1,"server":"https://bench.example","appId":"bench","runs":[{"started":"2026-11-20T10:00:00.000Z","finished":"2026-11-20T11:00:00.000Z","since":null,"counts":{}}],"state":{"files":{}}}"#
        try manifest.write(toFile: folder + "/manifest.json", atomically: true, encoding: .utf8)
        func conversationID(_ index: Int) -> String { run + hex(index, width: 16) }
        func members(_ index: Int) -> [String] { (0..<(2 + index % 4)).map { "u\((index * 7 + $0 * 13) % 50_000)" } }
        let start: Int64 = 1_600_000_000_000
        try writeLines(to: folder + "/classes/_Conversation.jsonl", count: conversations) { index in
            let created = "2020-09-13T12:26:40.000Z"
            let list = members(index).map { "\"\($0)\"" }.joined(separator: ",")
            return #"{"objectId":"\#(conversationID(index))","c":"\#(members(index)[0])","m":[\#(list)],"name":"group \#(index)","createdAt":"\#(created)","updatedAt":"\#(created)"}"#
        }
        let perFile = 100_000
        for file in 0..<((messages + perFile - 1) / perFile) {
            let first = file * perFile
            try writeLines(to: folder + "/messages/" + String(repeating: "0", count: 6 - String(file + 1).count) + "\(file + 1).jsonl", count: min(perFile, messages - first)) { offset in
                let index = first + offset
                let conversation = index % conversations
                let people = members(conversation)
                let from = people[index % people.count]
                let timestamp = start + Int64(index) * 10
                let id = ids == .byTime ? run + hex(index, width: 14) : randomID(index, run: run)
                var line = #"{"msg-id":"\#(id)","conv-id":"\#(conversationID(conversation))","from":"\#(from)","#
                    + #""timestamp":\#(timestamp),"data":"{\"_lctype\":-1,\"_lctext\":\"message \#(index) in a long conversation\"}","bin":false"#
                    + #","is-conv":true,"is-room":false,"to":"\#(conversationID(conversation))""#
                if index % 10 == 0 { line += #","mention-client-ids":["\#(people[(index + 1) % people.count])"]"# }
                if index % 50 == 0 { line += #","patch-timestamp":\#(timestamp + 5000)"# }
                return line + "}"
            }
        }
    }

    /// 22 characters of LeanCloud's alphabet in no order (SplitMix64 of the index and the
    /// run), different for each index.
    private static func randomID(_ index: Int, run: String) -> String {
        var state = UInt64(index) &* 0x9E37_79B9_7F4A_7C15 ^ ((UInt64(run, radix: 16) ?? 0) << 20)
        var id = ""
        while id.count < 22 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var bits = state
            bits = (bits ^ (bits >> 30)) &* 0xBF58_476D_1CE4_E5B9
            bits = (bits ^ (bits >> 27)) &* 0x94D0_49BB_1331_11EB
            bits ^= bits >> 31
            for _ in 0..<10 where id.count < 22 {
                id.append(idAlphabet[Int(bits & 63)])
                bits >>= 6
            }
        }
        return id
    }

    private static let idAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    private static func hex(_ number: Int, width: Int) -> String {
        let digits = String(number, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Writes `count` lines made by `line`, a block at a time.
    private static func writeLines(to path: String, count: Int, _ line: (Int) -> String) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var block = ""
        for index in 0..<count {
            block += line(index)
            block += "\n"
            if block.utf8.count >= 1 << 20 {
                try handle.write(contentsOf: Data(block.utf8))
                block = ""
            }
        }
        try handle.write(contentsOf: Data(block.utf8))
    }
}
