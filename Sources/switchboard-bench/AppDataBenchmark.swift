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
        let data = LocalAppData(store: store)
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
        // The same hook with and without the look-up: the difference is what the data costs a message.
        let hooks = HookCostBenchmark(calls: calls, logger: logger)
        let services = ScriptServices(data: data)
        for (name, script) in [("hook without a look-up", Self.plainHook), ("hook checking the sender's blacklist", Self.blacklistHook)] {
            let row = try await hooks.measure(name, Self.request(from: Self.owner(documents / 2))) { pipeline in
                try await HookCostBenchmark.loadScript(script, into: pipeline, logger: logger, services: services)
            }
            rows.append(Row(name: name, documents: documents, medianMicroseconds: row.medianMicroseconds, p99Microseconds: row.p99Microseconds, calls: calls))
        }
        return rows
    }

    static func owner(_ index: Int) -> String { "user\(index)" }

    static let plainHook = """
        AV.Cloud.onIMMessageReceived(async (request) => {
          if (request.params.fromPeer === '') return { drop: true };
          return {};
        });
        """

    /// Looks the sender up by an indexed field; nobody blocks it, so the message passes.
    static let blacklistHook = """
        AV.Cloud.onIMMessageReceived(async (request) => {
          const entry = await new AV.Query('Blacklist').equalTo('owner', request.params.fromPeer).first();
          if (!entry) throw new Error('the benchmark sender has no blacklist entry');
          return entry.get('blocked').includes('nobody') ? { drop: true } : {};
        });
        """

    static func request(from sender: String) -> MessageReceivedRequest {
        MessageReceivedRequest(
            fromPeer: sender, convId: "5f0c1b2a3d4e5f6a7b8c9d0e", toPeers: ["bob"], transient: false, bin: false,
            content: "hello", receipt: false, timestamp: 1_763_800_000_000, system: false, sourceIP: "127.0.0.1"
        )
    }

    /// `documents` blacklist entries, each with an owner, a few blocked users and a note.
    private func fill(_ store: SQLiteStore) async throws {
        let batch = 10_000
        let now = SystemWallClock().now()
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
