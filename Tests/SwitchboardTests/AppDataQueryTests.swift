import Foundation
import SwitchboardCore
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

    private func data(clock: any WallClock = SystemWallClock()) -> LocalAppData {
        LocalAppData(store: store, clock: clock)
    }

    private func ids(_ data: LocalAppData, _ className: String, _ whereDocument: JSONValue, order: String? = nil) async throws -> [String] {
        try await data.find(ObjectQuery(className: className, whereDocument: whereDocument, order: order, limit: 1000)).results.compactMap { $0["objectId"]?.stringValue }
    }

    static func date(_ iso: String) -> JSONValue { ["__type": "Date", "iso": .string(iso)] }

    /// Dates compare as moments, whatever ISO form they come in (without milliseconds, with
    /// an offset), on a Date field and on `createdAt`/`updatedAt` (plain strings in objects).
    @Test func datesCompareAsMoments() async throws {
        let data = data(clock: TestClock(at: Self.moment))
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

    static func pointer(_ className: String, _ id: String) -> JSONValue { ["__type": "Pointer", "className": .string(className), "objectId": .string(id)] }

    /// Three posts to query, named by title.
    private func posts(_ data: LocalAppData) async throws {
        let author: JSONValue = ["__type": "Pointer", "className": "_User", "objectId": "u1", "username": "ann", "createdAt": "2026-01-02T03:04:05.678Z"]
        let bodies: [[String: JSONValue]] = [
            ["title": "Hello World", "author": author, "tags": ["a", "b"], "meta": ["lang": "en", "score": 5], "n": 1],
            ["title": "hello there", "author": Self.pointer("_User", "u2"), "tags": ["b"], "meta": ["lang": "fr", "score": 7], "n": 2],
            ["title": "a.b (c)", "tags": [], "meta": ["lang": "en"], "n": 3],
        ]
        for body in bodies { _ = try await data.create(in: "Post", body: body, fetchWhenSave: false) }
    }

    private func titles(_ data: LocalAppData, _ parameters: [String: JSONValue]) async throws -> Set<String> {
        Set(try await data.find(ObjectQuery(className: "Post", parameters: parameters)).results.compactMap { $0["title"]?.stringValue })
    }

    /// `where` as the SDKs send it (JS `query.js`, PY `query.py`), on pointers stored with
    /// their object's fields, arrays, Object fields and text.
    @Test func whereAsTheSDKsSendIt() async throws {
        let data = data()
        try await posts(data)
        let ann = Self.pointer("_User", "u1")
        let expected: [(JSONValue, Set<String>)] = [
            (["author": ann], ["Hello World"]),
            (["author": ["$in": [ann, Self.pointer("_User", "u3")]]], ["Hello World"]),
            (["author": ["$nin": [ann]]], ["hello there", "a.b (c)"]),
            (["author": ["$ne": ann]], ["hello there", "a.b (c)"]),
            (["author": ["$exists": false]], ["a.b (c)"]),
            (["tags": "b"], ["Hello World", "hello there"]),
            (["tags": ["a", "b"]], ["Hello World"]),
            (["tags": ["$ne": "a"]], ["hello there", "a.b (c)"]),
            (["tags": ["$all": ["b", "a"]]], ["Hello World"]),
            (["tags": ["$size": 0]], ["a.b (c)"]),
            (["tags": ["$size": 1]], ["hello there"]),
            (["title": ["$regex": "\\Qa.b (c)\\E"]], ["a.b (c)"]),
            (["title": ["$regex": "^\\Qhello\\E", "$options": "i"]], ["Hello World", "hello there"]),
            (["title": ["$regex": "\\Qworld\\E$", "$options": "i"]], ["Hello World"]),
            (["title": ["$regex": "a.b"]], ["a.b (c)"]),
            (["meta.lang": "en"], ["Hello World", "a.b (c)"]),
            (["meta.score": ["$gt": 5]], ["hello there"]),
            (["$or": [["n": 1], ["n": 3]], "tags": ["$size": 0]], ["a.b (c)"]),
            (["$and": [["n": ["$gt": 1]], ["n": ["$lt": 3]]]], ["hello there"]),
            (#"[{"n":{"$gte":2}},{"meta.lang":"en"}]"#, ["a.b (c)"]),
        ]
        for (condition, titles) in expected {
            #expect(try await self.titles(data, ["where": condition]) == titles, "\(condition.jsonString)")
        }
    }

    /// `$all` of nothing matches nothing, as in MongoDB; a `$size` that is not a whole
    /// number, or an `$in`, `$nin` or `$all` that is not an array, is refused (102) rather
    /// than matching everything or nothing.
    @Test func anEmptyAllMatchesNothingAndABadSizeIsRefused() async throws {
        let data = data()
        try await posts(data)
        #expect(try await titles(data, ["where": ["tags": ["$all": []]]]).isEmpty)
        #expect(try await titles(data, ["where": ["nothere": ["$all": []]]]).isEmpty)
        let refused: [JSONValue] = [["$size": "1"], ["$size": .double(1.5)], ["$size": .null], ["$in": "a"], ["$nin": 1], ["$all": "a"]]
        for condition in refused {
            await #expect(throws: StorageError.self, "\(condition.jsonString)") {
                try await data.find(ObjectQuery(className: "Post", whereDocument: ["title": condition]))
            }
        }
    }

    /// `$options` takes `x` (D-rest's table: i, m, x, s): blanks and `#` comments in the
    /// pattern are left out.
    @Test func aRegexWithExtendedSyntax() async throws {
        let data = data()
        try await posts(data)
        #expect(try await titles(data, ["where": ["title": ["$regex": "hello \\s+  # a greeting\n there", "$options": "ix"]]]) == ["hello there"])
        #expect(try await titles(data, ["where": ["title": ["$regex": "^a [.] b \\ ", "$options": "x"]]]) == ["a.b (c)"])
    }

    /// `keys` reach into included pointers held in an array, as into one pointer.
    @Test func keysReachIntoIncludedPointersInAnArray() async throws {
        let data = data()
        var comments: [JSONValue] = []
        for text in ["one", "two"] {
            let created = try await data.create(in: "Comment", body: ["text": .string(text), "by": "ann", "secret": 1], fetchWhenSave: false)
            comments.append(Self.pointer("Comment", try #require(created["objectId"]?.stringValue)))
        }
        _ = try await data.create(in: "Post", body: ["title": "t", "body": "long", "comments": .array(comments)], fetchWhenSave: false)
        let kept = try #require(try await data.find(ObjectQuery(className: "Post", keys: ["title", "comments.text"], include: ["comments"])).results.first)
        let keptComments = kept["comments"]?.arrayValue ?? []
        #expect(keptComments.map { $0["text"] } == ["one", "two"] && kept["body"] == nil)
        #expect(keptComments.allSatisfy { Set($0.objectValue?.keys ?? [:].keys) == ["__type", "className", "objectId", "createdAt", "updatedAt", "text"] })
        let dropped = try #require(try await data.find(ObjectQuery(className: "Post", keys: ["-comments.secret"], include: ["comments"])).results.first)
        #expect(dropped["body"] == "long" && dropped["comments"]?.arrayValue?.allSatisfy { $0["secret"] == nil && $0["by"] == "ann" } == true)
    }

    /// An update whose operation fails part-way changes nothing: not the fields the body
    /// changed before it, not the index.
    @Test func anUpdateThatFailsPartWayChangesNothing() async throws {
        let data = data()
        let id = try #require(try await data.create(in: "Account", body: ["a": 1, "name": "x", "tags": ["t"], "big": .double(1e308)], fetchWhenSave: false)["objectId"]?.stringValue)
        let before = try await data.object(in: "Account", id: id, include: [], keys: [])
        let bodies: [[String: JSONValue]] = [
            ["a": 2, "b": 5, "name": ["__op": "Increment", "amount": 1]],
            ["a": 2, "tags": ["__op": "Add", "objects": ["u"]], "zz": ["__op": "AddUnique", "objects": 1]],
            ["a": ["__op": "Increment", "amount": 1], "name.inner": 1],
            ["a": 2, "tags": ["__op": "Remove", "objects": ["t"]], "z": ["__op": "BitOr", "value": .double(1.5)]],
            // Past the largest number JSON holds (it was kept as null).
            ["a": 2, "big": ["__op": "Increment", "amount": .double(1e308)]],
        ]
        for body in bodies {
            await #expect(throws: StorageError.self) { try await data.update(in: "Account", id: id, body: body, condition: nil, fetchWhenSave: false) }
            #expect(try await data.object(in: "Account", id: id, include: [], keys: []) == before)
            for changed: JSONValue in [["a": 2], ["b": 5], ["tags": "u"]] {
                #expect(try await ids(data, "Account", changed).isEmpty, "\(changed.jsonString)")
            }
            #expect(try await ids(data, "Account", ["a": 1]) == [id])
            #expect(try await ids(data, "Account", ["tags": "t"]) == [id])
        }
    }

    /// More objects than the store reads at a time (500): pages by skip and limit in
    /// createdAt order both ways, three objects to a millisecond, whether the index or the
    /// class is read; a sort by a field; the count.
    @Test func pagesPastWhatTheStoreReadsAtATime() async throws {
        let data = data(clock: SteppingClock(from: Self.moment, readsPerMillisecond: 3))
        var ids: [String] = []
        for number in 0..<1203 {
            ids.append(try #require(try await data.create(in: "Page", body: ["g": 1, "n": .int(Int64(number))], fetchWhenSave: false)["objectId"]?.stringValue))
        }
        let newestFirst = Array(ids.reversed())
        for whereDocument: JSONValue in [[:], ["g": 1], ["$or": [["g": 1]]]] {
            func page(_ order: String?, skip: Int, limit: Int) async throws -> [String] {
                try await data.find(ObjectQuery(className: "Page", whereDocument: whereDocument, order: order, skip: skip, limit: limit)).results.compactMap { $0["objectId"]?.stringValue }
            }
            let condition = whereDocument.jsonString
            #expect(try await page("createdAt", skip: 600, limit: 100) == Array(ids[600..<700]), "\(condition)")
            #expect(try await page(nil, skip: 1100, limit: 1000) == Array(ids[1100...]), "\(condition)")
            #expect(try await page("-createdAt", skip: 1000, limit: 150) == Array(newestFirst[1000..<1150]), "\(condition)")
            #expect(try await page("-createdAt", skip: 0, limit: 1000) == Array(newestFirst[0..<1000]), "\(condition)")
            #expect(try await page("-n", skip: 500, limit: 3) == Array(newestFirst[500..<503]), "\(condition)")
            let counted = try await data.find(ObjectQuery(className: "Page", whereDocument: whereDocument, limit: 0, count: true))
            #expect(counted.count == 1203 && counted.results.isEmpty, "\(condition)")
        }
        // As the REST API reads them: a limit past 1000 gives 1000, a skip below 0 none.
        let most = try await data.find(ObjectQuery(className: "Page", parameters: ["limit": "5000", "skip": "-3", "count": "1"]))
        #expect(most.results.compactMap { $0["objectId"]?.stringValue } == Array(ids[0..<1000]) && most.count == 1203)
    }

    /// `_Conversation` pointers expand under include however many there are (the IM
    /// store's filter takes at most 200 values in one `where`).
    @Test func includeExpandsManyConversations() async throws {
        let messages = try #require(store as? any MessageStore)
        let data = LocalAppData(store: store, imClasses: IMClasses([StoredConversations(store: messages)]))
        for number in 0..<250 {
            let id = String(format: "%024x", number + 1)
            try await messages.createConversation(Conversation(
                id: id, kind: .normal, name: "room \(number)", creator: "alice", members: ["alice"], attributes: [:], uniqueKey: nil,
                createdAt: Self.moment, updatedAt: Self.moment
            ))
            _ = try await data.create(in: "Room", body: ["n": .int(Int64(number)), "conversation": Self.pointer("_Conversation", id)], fetchWhenSave: false)
        }
        let rooms = try await data.find(ObjectQuery(className: "Room", order: "n", limit: 1000, include: ["conversation"])).results
        #expect(rooms.count == 250)
        #expect(rooms.map { $0["conversation"]?["name"] } == (0..<250).map { .string("room \($0)") })
        #expect(rooms.allSatisfy { $0["conversation"]?["__type"] == "Pointer" && $0["conversation"]?["createdAt"] != nil })
    }

    /// Dotted keys reach into Object fields, and through arrays of objects into each (as
    /// MongoDB's did), in `where` and in `order`; a range on an array, into its elements.
    @Test func dottedKeysReachIntoObjectsInWhereAndOrder() async throws {
        let data = data()
        let bodies: [[String: JSONValue]] = [
            ["title": "x", "meta": ["score": 5], "items": [["sku": "a", "n": 1], ["sku": "b", "n": 2]]],
            ["title": "y", "meta": ["score": 7], "items": [["sku": "c"]]],
            ["title": "z", "meta": ["score": 6]],
        ]
        for body in bodies { _ = try await data.create(in: "Order", body: body, fetchWhenSave: false) }
        func titles(_ whereDocument: JSONValue, order: String? = nil) async throws -> [String] {
            try await data.find(ObjectQuery(className: "Order", whereDocument: whereDocument, order: order)).results.compactMap { $0["title"]?.stringValue }
        }
        #expect(try await titles(["items.sku": "b"]) == ["x"])
        #expect(try await titles(["items.sku": ["$in": ["c", "d"]]]) == ["y"])
        #expect(try await titles(["items.n": ["$gt": 1]]) == ["x"])
        // A range on an array matches when one of its elements is in it.
        #expect(try await titles(["items.n": ["$lt": 2, "$gt": 0]]) == ["x"])
        #expect(try await titles(["items.sku": ["$exists": false]]) == ["z"])
        #expect(try await titles(["items.0.sku": "a"]) == ["x"])
        #expect(try await titles([:], order: "meta.score") == ["x", "z", "y"])
        #expect(try await titles([:], order: "-meta.score") == ["y", "z", "x"])
    }

    /// A list of nothing to be in (`$in: []`, what `containedIn` with an empty list or an
    /// `$inQuery` that finds nothing sends) or to hold all of (`$all: []`) matches nothing
    /// without reading the class, which in a large one was refused with 124.
    @Test func anEmptyListMatchesNothingWithoutReadingTheClass() async throws {
        let counter = ClassReadCounter(store)
        let data = LocalAppData(store: counter)
        for number in 0..<3 { _ = try await data.create(in: "Entry", body: ["owner": .string("u\(number)"), "tags": ["a"]], fetchWhenSave: false) }
        let conditions: [JSONValue] = [
            ["owner": ["$in": []]], ["objectId": ["$in": []]], ["tags": ["$all": []]],
            ["owner": ["$inQuery": ["className": "Entry", "where": ["owner": "nobody"]]]],
            ["owner": ["$select": ["query": ["className": "Entry", "where": ["owner": "nobody"]], "key": "owner"]]],
        ]
        for condition in conditions {
            let before = counter.classPagesRead
            #expect(try await ids(data, "Entry", condition).isEmpty, "\(condition.jsonString)")
            #expect(counter.classPagesRead == before, "\(condition.jsonString)")
        }
        // Pinned to a value, the same: the index answers; a range reads the class.
        let before = counter.classPagesRead
        #expect(try await ids(data, "Entry", ["owner": ["$in": ["u1"]]]).count == 1)
        #expect(counter.classPagesRead == before)
        #expect(try await ids(data, "Entry", ["owner": ["$gt": "u1"]]).count == 1)
        #expect(counter.classPagesRead == before + 1)
    }

    /// A query that bounds `createdAt` (or `updatedAt`, sorted by it) reads only that span
    /// of the class, as the 124 refusal advises, whatever the order asked; its answer is
    /// what reading the whole class gives.
    @Test func aTimeRangeReadsOnlyThatSpan() async throws {
        let counter = ClassReadCounter(store)
        // Object i is made at moment + i/3 milliseconds.
        let data = LocalAppData(store: counter, clock: SteppingClock(from: Self.moment, readsPerMillisecond: 3))
        var ids: [String] = []
        for number in 0..<1203 {
            ids.append(try #require(try await data.create(in: "Log", body: ["n": .int(Int64(number))], fetchWhenSave: false)["objectId"]?.stringValue))
        }
        func time(_ index: Int) -> JSONValue { Self.date(ISODate.string(milliseconds: Self.moment + Int64(index) / 3)) }
        let cases: [(whereDocument: JSONValue, order: String?, expected: [String])] = [
            (["createdAt": ["$gte": time(1101)]], nil, Array(ids[1101...])),
            (["createdAt": ["$lt": time(99)]], "-createdAt", Array(ids[0..<99].reversed())),
            (["createdAt": ["$gte": time(600), "$lte": time(602)]], "-n", Array(ids[600...602].reversed())),
            (["createdAt": time(300)], nil, Array(ids[300...302])),
            (["$and": [["createdAt": ["$gt": time(1199)]], ["n": ["$gte": 0]]]], "createdAt", Array(ids[1200...])),
            (["updatedAt": ["$gte": time(1101)]], "updatedAt", Array(ids[1101...])),
        ]
        for (whereDocument, order, expected) in cases {
            let before = counter.classPagesRead
            let found = try await data.find(ObjectQuery(className: "Log", whereDocument: whereDocument, order: order, limit: 1000, count: true))
            #expect(found.results.compactMap { $0["objectId"]?.stringValue } == expected && found.count == expected.count, "\(whereDocument.jsonString)")
            #expect(counter.classPagesRead == before + 1, "\(whereDocument.jsonString)")
            let whole = try await data.find(ObjectQuery(className: "Log", whereDocument: ["$or": [whereDocument]], order: order, limit: 1000))
            #expect(whole.results == found.results, "\(whereDocument.jsonString)")
        }
    }
}
