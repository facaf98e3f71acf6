import Foundation
import Logging
import SwitchboardData
import SwitchboardJSON
@testable import SwitchboardStore
import Testing

/// App data in PostgreSQL: LeanStorage's operations through `LocalAppData` over a real
/// `PostgresStore`, and two stores on one database as two nodes.
@Suite(.enabled(if: TestDatabase.usesPostgres, "needs PostgreSQL"))
struct PostgresDocumentStoreTests {
    @Test func objectsGoThroughLeanStoragesOperations() async throws {
        try await Self.withStores(1) { stores in
            let store = stores[0], data = LocalAppData(store: stores[0])
            let author = try await data.create(in: "Author", body: ["nick": "ann"], fetchWhenSave: false)
            let authorID = try #require(author["objectId"]?.stringValue)
            let pointer: JSONValue = ["__type": "Pointer", "className": "Author", "objectId": .string(authorID)]
            let created = try await data.create(
                in: "Post", body: ["title": "hello", "n": 1, "tags": ["a", "b"], "old": "x", "author": pointer], fetchWhenSave: true
            )
            let id = try #require(created["objectId"]?.stringValue)
            #expect(try await data.object(in: "Post", id: id, include: [], keys: []) == created)
            #expect(try await Self.entries(of: id, in: "Post", store) == Self.entries(of: created))

            let answer = try await data.update(
                in: "Post", id: id,
                body: [
                    "n": ["__op": "Increment", "amount": 2], "tags": ["__op": "Add", "objects": ["c", "a"]], "old": ["__op": "Delete"],
                    "labels": ["__op": "AddUnique", "objects": ["x", "y", "x"]],
                ],
                condition: nil, fetchWhenSave: true
            )
            #expect(answer["n"] == 3 && answer["labels"] == ["x", "y"] && answer["objectId"] == .string(id))
            _ = try await data.update(
                in: "Post", id: id, body: ["tags": ["__op": "Remove", "objects": ["a"]], "labels": ["__op": "AddUnique", "objects": ["y", "z"]]],
                condition: nil, fetchWhenSave: false
            )
            let updated = try #require(try await data.object(in: "Post", id: id, include: [], keys: []))
            #expect(updated["n"] == 3 && updated["tags"] == ["b", "c"] && updated["labels"] == ["x", "y", "z"] && updated["old"] == nil)
            #expect(updated["createdAt"] == created["createdAt"])
            // The index follows: "a" and "old" gone from it, "c" and the labels in it.
            #expect(try await Self.entries(of: id, in: "Post", store) == Self.entries(of: updated))

            let included = try await data.find(ObjectQuery(className: "Post", whereDocument: ["objectId": .string(id)], include: ["author"]))
            let expanded = try #require(included.results.first?["author"])
            #expect(expanded["nick"] == "ann" && expanded["__type"] == "Pointer" && expanded["createdAt"] != nil)

            try await data.delete(in: "Post", id: id, condition: nil)
            #expect(try await data.object(in: "Post", id: id, include: [], keys: []) == nil)
            #expect(try await Self.entries(of: id, in: "Post", store).isEmpty)
        }
    }

    @Test func queriesFindOrderAndCount() async throws {
        try await Self.withStores(1) { stores in
            let store = stores[0], data = LocalAppData(store: stores[0])
            for rank in 1...10 {
                _ = try await data.create(
                    in: "Post", body: ["rank": .int(Int64(rank)), "group": rank % 2 == 0 ? "even" : "odd", "tags": [.string("t\(rank)"), "all"]],
                    fetchWhenSave: false
                )
            }
            func ranks(_ query: ObjectQuery) async throws -> [Int64] {
                try await data.find(query).results.compactMap { $0["rank"]?.int64Value }
            }
            let even = try await data.find(ObjectQuery(className: "Post", whereDocument: ["group": "even"], order: "-rank", skip: 1, limit: 2, count: true))
            #expect(even.results.compactMap { $0["rank"]?.int64Value } == [8, 6] && even.count == 5)
            let range = try await data.find(ObjectQuery(className: "Post", whereDocument: ["rank": ["$gte": 3]], order: "rank", skip: 2, limit: 3, count: true))
            #expect(range.results.compactMap { $0["rank"]?.int64Value } == [5, 6, 7] && range.count == 8)
            #expect(try await ranks(ObjectQuery(className: "Post", whereDocument: ["rank": ["$in": [2, 4, 99]]], order: "rank")) == [2, 4])
            #expect(try await ranks(ObjectQuery(className: "Post", whereDocument: ["tags": "t7"])) == [7])
            #expect(try await ranks(ObjectQuery(className: "Post", whereDocument: ["tags": ["$in": ["t3", "t9", "all"]]], order: "rank")) == Array(1...10))
            #expect(try await data.find(ObjectQuery(className: "Post", whereDocument: ["group": "even"], limit: 0, count: true)).count == 5)

            // An equality is answered from storage_key: with its entries gone, nothing is found
            // (the class is not read), while a range still reads the class.
            try await store.run("DELETE FROM storage_key WHERE class_name = 'Post' AND field = 'group'")
            #expect(try await ranks(ObjectQuery(className: "Post", whereDocument: ["group": "even"])).isEmpty)
            #expect(try await ranks(ObjectQuery(className: "Post", whereDocument: ["rank": ["$lte": 2]], order: "rank")) == [1, 2])
        }
    }

    @Test func scanWalksAClassPageByPage() async throws {
        try await Self.withStores(1) { stores in
            let data = LocalAppData(store: stores[0])
            var ids: [String] = []
            for number in 1...7 {
                let created = try await data.create(in: "Item", body: ["number": .int(Int64(number)), "even": .bool(number % 2 == 0)], fetchWhenSave: false)
                ids.append(try #require(created["objectId"]?.stringValue))
            }
            var seen: [String] = [], pages = 0
            var cursor: String?
            repeat {
                let page = try await data.scan(in: "Item", where: [:], scanKey: nil, cursor: cursor, limit: 3)
                seen += page.results.compactMap { $0["objectId"]?.stringValue }
                cursor = page.cursor
                pages += 1
            } while cursor != nil && pages < 10
            #expect(seen == ids.sorted() && pages == 3)

            var evens: [Int64] = []
            cursor = nil
            repeat {
                let page = try await data.scan(in: "Item", where: ["even": true], scanKey: "-createdAt", cursor: cursor, limit: 2)
                evens += page.results.compactMap { $0["number"]?.int64Value }
                cursor = page.cursor
            } while cursor != nil && evens.count < 10
            #expect(Set(evens) == [2, 4, 6] && evens.count == 3)
        }
    }

    /// Pages in each order the store keeps, ties broken by object id, in byte order even
    /// where the database sorts text by a locale's rules (en-US puts `_c` before `-d`, `b2`
    /// before `B2`).
    @Test func pagesFollowTheirOrderWithTiesByObjectID() async throws {
        let url = try #require(try await TestDatabase.url(sortingTextAs: "en-US"))
        try await Self.withStores(1, on: url) { stores in
            let store = stores[0]
            let times: [(id: String, created: Int64, updated: Int64)] = [
                ("a1", 5, 9), ("B2", 3, 9), ("_c", 5, 7), ("-d", 1, 9), ("Z9", 3, 2), ("b2", 5, 7), ("0e", 5, 9),
            ]
            try await store.insert(times.map { StoredDocument(className: "Row", objectID: $0.id, createdAt: $0.created, updatedAt: $0.updated, fields: [:]) })
            try await store.insert([StoredDocument(className: "Other", objectID: "a1", createdAt: 4, updatedAt: 4, fields: [:])])
            for column in [DocumentOrder.Column.objectID, .createdAt, .updatedAt] {
                for ascending in [true, false] {
                    let order = DocumentOrder(column, ascending: ascending)
                    let time: ((id: String, created: Int64, updated: Int64)) -> Int64 = {
                        switch column {
                        case .objectID: 0
                        case .createdAt: $0.created
                        case .updatedAt: $0.updated
                        }
                    }
                    let expected = times.sorted { a, b in
                        let (left, right) = ascending ? (a, b) : (b, a)
                        return time(left) != time(right) ? time(left) < time(right) : left.id.utf8.lexicographicallyPrecedes(right.id.utf8)
                    }.map(\.id)
                    var walked: [String] = []
                    var position: DocumentOrder.Position?
                    while walked.count <= times.count {
                        let page = try await store.documents(in: "Row", order: order, after: position, limit: 2)
                        walked += page.map(\.objectID)
                        guard page.count == 2, let last = page.last else { break }
                        position = .init(after: last, in: order)
                    }
                    #expect(walked == expected, "\(column) ascending: \(ascending)")
                }
            }
        }
    }

    @Test func indexLookupsPageInObjectIDOrder() async throws {
        try await Self.withStores(1) { stores in
            let store = stores[0]
            let documents = (0..<7).map { number in
                StoredDocument(
                    className: "Tagged", objectID: "id\(number)", createdAt: 1, updatedAt: 1,
                    fields: ["tags": number == 3 ? ["red", "blue"] : number % 2 == 0 ? ["red"] : ["blue"], "other": "red"]
                )
            }
            try await store.insert(documents.reversed())
            let keys = [IndexEntries.key(for: "red"), IndexEntries.key(for: "blue")].compactMap { $0 }
            var walked: [String] = []
            var afterID: String?
            while walked.count <= documents.count {
                let page = try await store.documents(in: "Tagged", field: "tags", indexKeys: keys, afterID: afterID, limit: 3)
                walked += page.map(\.objectID)
                guard page.count == 3 else { break }
                afterID = page.last?.objectID
            }
            // The document with both keys comes once.
            #expect(walked == documents.map(\.objectID))
            let blue = try await store.documents(in: "Tagged", field: "tags", indexKeys: [keys[1]], afterID: "id1", limit: 10)
            #expect(blue.map(\.objectID) == ["id3", "id5"])
            #expect(try await store.documents(in: "Tagged", field: "other", indexKeys: [keys[1]], afterID: nil, limit: 10).isEmpty)
        }
    }

    @Test func anInsertWithATakenIDStoresNothing() async throws {
        try await Self.withStores(1) { stores in
            let store = stores[0]
            func document(_ id: String) -> StoredDocument {
                StoredDocument(className: "Thing", objectID: id, createdAt: 1, updatedAt: 1, fields: ["name": .string(id)])
            }
            try await store.insert([document("taken")])
            await #expect(throws: StorageError.duplicateID("Thing", id: "taken")) { try await store.insert([document("new"), document("taken")]) }
            await #expect(throws: StorageError.duplicateID("Thing", id: "twice")) { try await store.insert([document("twice"), document("twice")]) }
            #expect(try await store.documents(in: "Thing", ids: ["taken", "new", "twice"]).map(\.objectID) == ["taken"])
            let names = try await store.all("SELECT key FROM storage_key WHERE class_name = 'Thing'").compactMap { $0.string("key") }
            #expect(names == [#""taken""#])
            // The same id in another class is another object.
            try await store.insert([StoredDocument(className: "Other", objectID: "taken", createdAt: 1, updatedAt: 1, fields: [:])])
        }
    }

    /// A failed condition or operation leaves the object as it was, its index too.
    @Test func refusedChangesChangeNothing() async throws {
        try await Self.withStores(1) { stores in
            let store = stores[0], data = LocalAppData(store: stores[0])
            let created = try await data.create(in: "Counter", body: ["n": 5, "name": "c"], fetchWhenSave: true)
            let id = try #require(created["objectId"]?.stringValue)
            let increment: [String: JSONValue] = ["n": ["__op": "Increment", "amount": 1]]
            await #expect(throws: StorageError.noEffect) {
                try await data.update(in: "Counter", id: id, body: increment, condition: ["n": ["$gt": 100]], fetchWhenSave: false)
            }
            let refused = await #expect(throws: StorageError.self) {
                try await data.update(in: "Counter", id: id, body: ["name": ["__op": "Increment", "amount": 1], "n": 0], condition: nil, fetchWhenSave: false)
            }
            #expect(refused?.code == 111)
            await #expect(throws: StorageError.noEffect) { try await data.delete(in: "Counter", id: id, condition: ["name": "other"]) }
            #expect(try await data.object(in: "Counter", id: id, include: [], keys: []) == created)
            #expect(try await Self.entries(of: id, in: "Counter", store) == Self.entries(of: created))

            _ = try await data.update(in: "Counter", id: id, body: increment, condition: ["n": 5], fetchWhenSave: false)
            #expect(try await data.object(in: "Counter", id: id, include: [], keys: [])?["n"] == 6)
            await #expect(throws: StorageError.objectNotFound("Counter", id: "nothere")) {
                try await data.update(in: "Counter", id: "nothere", body: increment, condition: nil, fetchWhenSave: false)
            }
        }
    }

    /// PostgreSQL's TEXT holds no NUL, which a pointer or a `where` may carry: such values
    /// are stored and found, or found to match nothing, rather than failing the call.
    @Test func valuesWithNULAreKeptAndLookedUp() async throws {
        try await Self.withStores(1) { stores in
            let data = LocalAppData(store: stores[0])
            let odd: JSONValue = ["__type": "Pointer", "className": "A\u{0}", "objectId": "1\u{0}"]
            let created = try await data.create(in: "Ref", body: ["ref": odd, "name": "n\u{0}"], fetchWhenSave: false)
            let found = try await data.find(ObjectQuery(className: "Ref", whereDocument: ["ref": odd]))
            #expect(found.results.map { $0["objectId"] } == [created["objectId"]])
            #expect(try await data.find(ObjectQuery(className: "Ref", whereDocument: ["name": "n\u{0}"])).results.count == 1)
            // U+FFFD stands in for NUL in the index, and is no match for it.
            let lookalike: JSONValue = ["__type": "Pointer", "className": "A\u{FFFD}", "objectId": "1\u{FFFD}"]
            #expect(try await data.find(ObjectQuery(className: "Ref", whereDocument: ["ref": lookalike])).results.isEmpty)
            #expect(try await data.find(ObjectQuery(className: "Ref", whereDocument: ["objectId": "a\u{0}"])).results.isEmpty)
            #expect(try await data.find(ObjectQuery(className: "Ref", whereDocument: ["x\u{0}": 1])).results.isEmpty)
        }
    }

    /// Two nodes on one database: what one writes the other reads, and their read-modify-
    /// writes of one object all count.
    @Test func twoNodesShareObjectsAndLoseNoUpdate() async throws {
        try await Self.withStores(2) { stores in
            let nodeA = LocalAppData(store: stores[0]), nodeB = LocalAppData(store: stores[1])
            let created = try await nodeA.create(in: "Blacklist", body: ["blocked": "mallory", "by": ["alice"]], fetchWhenSave: true)
            let id = try #require(created["objectId"]?.stringValue)
            #expect(try await nodeB.object(in: "Blacklist", id: id, include: [], keys: []) == created)
            #expect(try await nodeB.find(ObjectQuery(className: "Blacklist", whereDocument: ["blocked": "mallory"])).results == [created])
            _ = try await nodeB.update(in: "Blacklist", id: id, body: ["by": ["__op": "AddUnique", "objects": ["bob"]]], condition: nil, fetchWhenSave: false)
            #expect(try await nodeA.find(ObjectQuery(className: "Blacklist", whereDocument: ["by": "bob"])).results.count == 1)

            let counter = try await nodeA.create(in: "Counter", body: ["n": 0], fetchWhenSave: false)
            let counterID = try #require(counter["objectId"]?.stringValue)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for number in 0..<100 {
                    let node = number % 2 == 0 ? nodeA : nodeB
                    group.addTask {
                        _ = try await node.update(in: "Counter", id: counterID, body: ["n": ["__op": "Increment", "amount": 1]], condition: nil, fetchWhenSave: false)
                    }
                    group.addTask {
                        _ = try await node.update(
                            in: "Counter", id: counterID, body: ["values": ["__op": "Add", "objects": [.int(Int64(number))]]], condition: nil, fetchWhenSave: false
                        )
                    }
                }
                try await group.waitForAll()
            }
            let counted = try #require(try await nodeB.object(in: "Counter", id: counterID, include: [], keys: []))
            let values = counted["values"]?.arrayValue?.compactMap(\.int64Value) ?? []
            #expect(counted["n"] == 100)
            #expect(values.count == 100 && Set(values) == Set(0..<100))
            #expect(try await Self.entries(of: counterID, in: "Counter", stores[0]) == Self.entries(of: counted))

            try await nodeB.delete(in: "Blacklist", id: id, condition: nil)
            #expect(try await nodeA.object(in: "Blacklist", id: id, include: [], keys: []) == nil)
        }
    }

    // MARK: Helpers

    /// `count` stores on one database (a new one unless `url` names it), as that many nodes;
    /// closed after `body`.
    private static func withStores(_ count: Int, on url: String? = nil, _ body: ([PostgresStore]) async throws -> Void) async throws {
        let url = try #require(url == nil ? try await TestDatabase.url(for: "documents-" + UUID().uuidString) : url)
        var stores: [PostgresStore] = []
        do {
            for _ in 0..<count { stores.append(try await PostgresStore(url: url, logger: Logger(label: "test-documents"))) }
            try await body(stores)
        } catch {
            for store in stores { await store.close() }
            throw error
        }
        for store in stores { await store.close() }
    }

    /// The (field, key) rows storage_key holds for an object.
    private static func entries(of id: String, in className: String, _ store: PostgresStore) async throws -> Set<[String]> {
        Set(try await store.all("SELECT field, key FROM storage_key WHERE class_name = \(className) AND object_id = \(id)").map {
            [$0.string("field") ?? "", $0.string("key") ?? ""]
        })
    }

    /// The (field, key) pairs `IndexEntries` gives an object as the REST API shows it.
    private static func entries(of object: JSONValue) -> Set<[String]> {
        let fields = (object.objectValue ?? [:]).filter { !StoredDocument.builtInKeys.contains($0.key) }
        return Set(IndexEntries.of(fields).map { [$0.field, $0.key] })
    }
}
