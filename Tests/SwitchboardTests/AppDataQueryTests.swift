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
}
