import Foundation
import Logging
import SwitchboardData
import SwitchboardHooks
import SwitchboardJS
import SwitchboardJSON
import SwitchboardServer
import SwitchboardStore

/// What a hook's look-up of one object costs in a large class: the store's answer alone,
/// and a `_messageReceived` hook that checks the sender in a blacklist against the same
/// hook without the check.
struct AppDataBenchmark {
    struct Row: Encodable {
        var name: String
        var documents: Int
        var medianMicroseconds: Double
        var p99Microseconds: Double
        var calls: Int
    }

    let documents: Int
    let calls: Int
    let logger: Logger

    func run() async throws -> [Row] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-bench-data-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteStore(path: directory + "/data.sqlite")
        try await fill(store)
        let data = LocalAppData(store: store, conversations: nil)
        var rows: [Row] = []
        let lookups = await HookCostBenchmark.sample(calls) {
            let query = ObjectQuery(className: "Blacklist", whereDocument: ["owner": .string(Self.owner(Int.random(in: 0..<documents)))], limit: 1)
            let found = try? await data.find(query)
            precondition(found?.results.count == 1, "the look-up found no object")
        }
        rows.append(Row(name: "find one by an indexed field", documents: documents, medianMicroseconds: lookups.median.microseconds,
                        p99Microseconds: lookups.p99.microseconds, calls: calls))
        let byID = try await data.find(ObjectQuery(className: "Blacklist", limit: 50)).results.compactMap { $0["objectId"]?.stringValue }
        let gets = await HookCostBenchmark.sample(calls) {
            let found = try? await data.object(in: "Blacklist", id: byID.randomElement()!, include: [], keys: [])
            precondition(found != nil, "the get found no object")
        }
        rows.append(Row(name: "get one by objectId", documents: documents, medianMicroseconds: gets.median.microseconds,
                        p99Microseconds: gets.p99.microseconds, calls: calls))
        return rows
    }

    static func owner(_ index: Int) -> String { "user\(index)" }

    /// `documents` blacklist entries, each with an owner, a few blocked users and a note.
    private func fill(_ store: SQLiteStore) async throws {
        let batch = 10_000
        let now = LocalAppData.wallMilliseconds()
        for start in stride(from: 0, to: documents, by: batch) {
            let rows = (start..<min(start + batch, documents)).map { index in
                try! StoredDocument(importing: [
                    "owner": .string(Self.owner(index)),
                    "blocked": [.string(Self.owner(index + 1)), .string(Self.owner(index + 2)), .string(Self.owner(index + 3))],
                    "note": "kept since the move from LeanCloud",
                ], className: "Blacklist", now: now + Int64(index))
            }
            try await store.insert(rows)
        }
    }
}
