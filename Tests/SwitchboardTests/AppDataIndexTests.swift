import SwitchboardData
import SwitchboardJSON
import Testing

/// The index (`storage_key`) finds what reading the whole class finds.
@Suite struct AppDataIndexTests {
    /// Text is found through the index however it is composed (é as one character or as e
    /// and an accent), as the filter finds it equal; a date as what it compares as.
    @Test(arguments: AppDataStore.available)
    func equalValuesOfOtherFormsAreFoundThroughTheIndex(_ kind: AppDataStore) async throws {
        try await kind.with { store in
            let data = LocalAppData(store: store, conversations: nil)
            _ = try await data.create(in: "Name", body: ["name": "Jose\u{301}", "tags": ["caf\u{E9}", "cafe\u{301}"], "at": Self.date(5)], fetchWhenSave: false)
            for condition: JSONValue in [["name": "Jos\u{E9}"], ["tags": "cafe\u{301}"], ["tags": "caf\u{E9}"], ["at": 5]] {
                #expect(try await data.find(ObjectQuery(className: "Name", whereDocument: condition)).results.count == 1, "\(condition.jsonString)")
            }
        }
    }

    /// Objects made in one millisecond come in one order whether the index or the class was
    /// read: by object id, in the direction of the sort, as the store pages `createdAt`.
    @Test(arguments: AppDataStore.available)
    func tiesComeInOneOrderWhicheverWayTheObjectsWereRead(_ kind: AppDataStore) async throws {
        try await kind.with { store in
            let data = LocalAppData(store: store, conversations: nil, now: { 1_767_000_000_000 })
            for number in 0..<5 { _ = try await data.create(in: "Tie", body: ["g": 1, "n": .int(Int64(number))], fetchWhenSave: false) }
            for order in ["createdAt", "-createdAt", "-updatedAt"] {
                let indexed = try await data.find(ObjectQuery(className: "Tie", whereDocument: ["g": 1], order: order))
                let read = try await data.find(ObjectQuery(className: "Tie", order: order))
                #expect(indexed.results.map { $0["n"] } == read.results.map { $0["n"] }, "\(order)")
            }
            let newestFirst = try await data.find(ObjectQuery(className: "Tie", whereDocument: ["g": 1], order: "-createdAt"))
            #expect(newestFirst.results.map { $0["n"] } == [4, 3, 2, 1, 0])
        }
    }

    static func date(_ iso: JSONValue) -> JSONValue { ["__type": "Date", "iso": iso] }
}
