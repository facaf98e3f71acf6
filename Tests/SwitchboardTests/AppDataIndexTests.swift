import SwitchboardData
import SwitchboardJSON
import Testing

/// The index (`storage_key`) finds what reading the whole class finds. For each condition
/// the planner answers from the index (an equality, `$eq`, `$in` or `$all` on a field, or
/// on `objectId`), `find` gives the same objects in the same order as the same condition
/// inside a one-branch `$or`, which the planner cannot use. The values are of every kind
/// LeanStorage keeps, in the forms the filter takes as equal (1 and 1.0, a pointer with and
/// without its object's fields, a date and its ISO string, é composed and decomposed), and
/// some objects change after they are made.
@Suite struct AppDataIndexTests {
    @Test(arguments: AppDataStore.available)
    func lookupsFindWhatReadingTheClassFinds(_ kind: AppDataStore) async throws {
        try await kind.with { store in
            // One clock reading for all objects: createdAt ties, broken by object id.
            let data = LocalAppData(store: store, clock: TestClock(at: 1_767_000_000_000))
            var random = SeededRandom(seed: 36)
            var ids: [String] = []
            for _ in 0..<150 {
                let created = try await data.create(in: "Mixed", body: Self.document(&random), fetchWhenSave: false)
                ids.append(try #require(created["objectId"]?.stringValue))
            }
            for id in ids where Int.random(in: 0..<3, using: &random) == 0 {
                _ = try await data.update(in: "Mixed", id: id, body: Self.change(&random), condition: nil, fetchWhenSave: false)
            }
            // Each condition in one of the orders: createdAt ties break by object id, in the
            // order's direction.
            let orders = [nil, "-createdAt", "n,-updatedAt"]
            for (index, condition) in Self.conditions(ids: ids).enumerated() {
                let order = orders[index % orders.count]
                let direct = try await data.find(ObjectQuery(className: "Mixed", whereDocument: condition, order: order, limit: 1000, count: true))
                let read = try await data.find(ObjectQuery(className: "Mixed", whereDocument: ["$or": [condition]], order: order, limit: 1000, count: true))
                #expect(Self.ids(direct) == Self.ids(read), "\(condition.jsonString), order \(order ?? "none")")
                #expect(direct.count == read.count, "\(condition.jsonString)")
            }
        }
    }

    /// Text is found through the index however it is composed (é as one character or as e
    /// and an accent), as the filter finds it equal; a date as what it compares as.
    @Test(arguments: AppDataStore.available)
    func equalValuesOfOtherFormsAreFoundThroughTheIndex(_ kind: AppDataStore) async throws {
        try await kind.with { store in
            let data = LocalAppData(store: store)
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
            let data = LocalAppData(store: store, clock: TestClock(at: 1_767_000_000_000))
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

    // MARK: Values

    static let longText = String(repeating: "x", count: 300)
    static let edgeText = String(repeating: "y", count: 256)

    static func date(_ iso: JSONValue) -> JSONValue { ["__type": "Date", "iso": iso] }

    static func pointer(_ className: String, _ id: String) -> JSONValue { ["__type": "Pointer", "className": .string(className), "objectId": .string(id)] }

    static let values: [JSONValue] = [
        1, .double(1.0), .double(1.5), 0, .double(-0.0), -7, .int(.max), .double(9.3e18), 9_007_199_254_740_993, .double(9_007_199_254_740_992),
        true, false,
        "a", "1", "true", "", "null", "*", .string(longText), .string(edgeText), .string(edgeText + "z"),
        "\u{E9}", "e\u{301}",
        date("2026-01-02T03:04:05.678Z"), "2026-01-02T03:04:05.678Z", ["__type": "Date", "iso": "2026-01-02T03:04:05.678Z", "zone": "UTC"],
        date("2026-01-02T03:04:05Z"), date("2026-01-02T03:04:05.000Z"), date("2026-01-02T11:04:05.678+08:00"), date(1), date(date("a")),
        pointer("A", "1"), ["__type": "Pointer", "className": "A", "objectId": "1", "name": "with its fields", "createdAt": "2026-01-02T03:04:05.678Z"],
        pointer("A", "2"), pointer("B", "1"), pointer("A:1", "2"), pointer("A", "1:2"), ["__type": "Pointer", "className": "A"],
        .null, ["k": 1], ["k": .double(1.0)], [1, 2], ["a"], [],
    ]

    /// An object: `a` holds anything (an array of values too, past 1000 elements at times),
    /// `b` an array or nothing, `c` one value or nothing, `n` a small number to sort by.
    static func document(_ random: inout SeededRandom) -> [String: JSONValue] {
        var fields: [String: JSONValue] = ["n": .int(Int64.random(in: 0..<4, using: &random))]
        fields["a"] = anything(&random)
        fields["b"] = Int.random(in: 0..<4, using: &random) == 0 ? nil : list(&random)
        fields["c"] = Int.random(in: 0..<4, using: &random) == 0 ? nil : value(&random)
        return fields
    }

    static func value(_ random: inout SeededRandom) -> JSONValue { values.randomElement(using: &random)! }

    static func list(_ random: inout SeededRandom) -> JSONValue {
        var elements = (0..<Int.random(in: 0..<5, using: &random)).map { _ in value(&random) }
        if Int.random(in: 0..<30, using: &random) == 0 { elements += filler }
        return .array(elements.shuffled(using: &random))
    }

    static func anything(_ random: inout SeededRandom) -> JSONValue? {
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1: nil
        case 2, 3: list(&random)
        case 4: ["inner": value(&random)]
        default: value(&random)
        }
    }

    /// Past the 1000 elements whose values the index keeps one by one.
    static let filler: [JSONValue] = (0..<1001).map { .string("filler \($0)") }

    /// A change: `a` and `c` set or deleted, `b` added to, added to uniquely or removed from,
    /// growing past 1000 elements or shrinking back.
    static func change(_ random: inout SeededRandom) -> [String: JSONValue] {
        var body: [String: JSONValue] = [:]
        body["a"] = anything(&random) ?? ["__op": "Delete"]
        body["c"] = Int.random(in: 0..<2, using: &random) == 0 ? ["__op": "Delete"] : value(&random)
        let operation = ["Add", "AddUnique", "Remove"].randomElement(using: &random)!
        var objects = [value(&random), value(&random)]
        if Int.random(in: 0..<8, using: &random) == 0 { objects += filler }
        body["b"] = ["__op": .string(operation), "objects": .array(objects)]
        return body
    }

    /// Equalities, `$eq`, `$in` and `$all` on each field for each value; two fields at once;
    /// object ids.
    static func conditions(ids: [String]) -> [JSONValue] {
        var conditions: [JSONValue] = []
        for field in ["a", "b", "c"] {
            for (index, value) in values.enumerated() {
                let other = values[(index + 1) % values.count]
                let second = field == "c" ? "a" : "c"
                conditions += [
                    [field: value], [field: ["$eq": value]], [field: ["$in": [value, other]]], [field: ["$all": [value, other]]],
                    ["$and": [[field: value], [field: ["$ne": other]]]], [field: value, second: other],
                ]
            }
        }
        conditions += ["a", "b", "c", "objectId"].flatMap { field -> [JSONValue] in [[field: ["$in": []]], [field: ["$all": []]]] }
        conditions += [
            ["objectId": .string(ids[3])], ["objectId": ["$in": [.string(ids[5]), .string(ids[8]), "nothere"]]],
            ["objectId": ["$all": [.string(ids[9])]]], ["objectId": .string(ids[4]), "a": ["$exists": true]],
        ]
        return conditions
    }

    static func ids(_ result: ObjectQuery.Result) -> [String] {
        result.results.compactMap { $0["objectId"]?.stringValue }
    }
}

/// SplitMix64: the same numbers on every run, so that a failure happens again.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
