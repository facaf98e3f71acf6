import Foundation
import SwitchboardData
import SwitchboardJSON
import Testing

/// Queries as LeanCloud's SDKs and REST users send them (`where` operators, dates, sorting,
/// pages, keys with include) and updates that fail part-way, over the configured store.
@Suite(.appDataStore) struct AppDataQueryTests {
    let store: any DocumentStore

    init() throws {
        store = try #require(AppDataStore.current)
    }

    /// `2026-01-02T03:04:05.678Z`.
    static let moment: Int64 = 1_767_323_045_678

    private func data(at time: @escaping @Sendable () -> Int64 = LocalAppData.wallMilliseconds) -> LocalAppData {
        LocalAppData(store: store, conversations: nil, now: time)
    }

    private func ids(_ data: LocalAppData, _ className: String, _ whereDocument: JSONValue, order: String? = nil) async throws -> [String] {
        try await data.find(ObjectQuery(className: className, whereDocument: whereDocument, order: order, limit: 1000)).results.compactMap { $0["objectId"]?.stringValue }
    }

    static func date(_ iso: String) -> JSONValue { ["__type": "Date", "iso": .string(iso)] }

    /// Dates compare as moments, whatever ISO form they come in (without milliseconds, with
    /// an offset), on a Date field and on `createdAt`/`updatedAt` (plain strings in objects).
    @Test func datesCompareAsMoments() async throws {
        let data = data(at: { Self.moment })
        let id = try #require(try await data.create(in: "Event", body: ["at": Self.date("2026-01-02T03:04:05.678Z")], fetchWhenSave: false)["objectId"]?.stringValue)
        let sameSecond = Self.date("2026-01-02T03:04:05Z"), sameMoment = Self.date("2026-01-02T11:04:05.678+08:00")
        for field in ["at", "createdAt", "updatedAt"] {
            let conditions: [JSONValue] = [
                [field: ["$gte": sameSecond]], [field: ["$gt": sameSecond]], [field: ["$lte": sameMoment]], [field: ["$gte": sameMoment]],
                [field: ["$lt": Self.date("2026-01-02T03:04:06Z")]], [field: ["$gt": Self.date("2026-01-02T03:04:05.677Z")]],
            ]
            for condition in conditions {
                #expect(try await ids(data, "Event", condition) == [id], "\(condition.jsonString)")
            }
            #expect(try await ids(data, "Event", [field: ["$lt": sameSecond]]).isEmpty, "\(field)")
        }
        // Equality, through the index.
        #expect(try await ids(data, "Event", ["at": sameMoment]) == [id])
        #expect(try await ids(data, "Event", ["at": ["$in": [Self.date("2026-01-02T03:04:05.678000Z")]]]) == [id])
    }

    /// A field holding values of several kinds sorts them by kind, as MongoDB did for
    /// LeanStorage (numbers, text, objects, arrays, booleans), missing values last; the
    /// order is the same however the objects were made.
    @Test func mixedKindsSortByKind() async throws {
        let data = data()
        let values: [JSONValue] = [3, "b", 1, ["k": 1], true, "a", [1], .double(2.5), false, ["k": 0], [0]]
        let permutations = [values, values.reversed(), values.indices.map { values[$0 * 7 % values.count] }]
        for (index, permutation) in permutations.enumerated() {
            let className = "Mixed\(index)"
            for value in permutation { _ = try await data.create(in: className, body: ["v": value], fetchWhenSave: false) }
            _ = try await data.create(in: className, body: ["other": 1], fetchWhenSave: false)
            let ascending = try await data.find(ObjectQuery(className: className, order: "v")).results.map { $0["v"] ?? .null }
            #expect(ascending == [1, .double(2.5), 3, "a", "b", ["k": 0], ["k": 1], [0], [1], false, true, .null])
            let descending = try await data.find(ObjectQuery(className: className, order: "-v")).results.map { $0["v"] ?? .null }
            #expect(descending == [true, false, [1], [0], ["k": 1], ["k": 0], "b", "a", 3, .double(2.5), 1, .null])
        }
    }
}
