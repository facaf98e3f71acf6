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

    static func date(_ iso: JSONValue) -> JSONValue { ["__type": "Date", "iso": iso] }
}
