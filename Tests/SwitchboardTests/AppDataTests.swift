import Foundation
import SwitchboardData
import SwitchboardJSON
import SwitchboardStore
import Testing

/// LeanStorage's operations and queries (`LocalAppData`) over a real SQLite store, or a
/// real PostgreSQL one when `SWITCHBOARD_TEST_POSTGRES_URL` is set.
@Suite(.appDataStore) struct AppDataTests {
    let data: LocalAppData

    init() throws {
        data = LocalAppData(store: try #require(AppDataStore.current))
    }

    private func create(_ className: String, _ body: JSONValue) async throws -> String {
        try #require(try await data.create(in: className, body: body.objectValue ?? [:], fetchWhenSave: false)["objectId"]?.stringValue)
    }

    private func find(_ className: String, _ parameters: JSONValue) async throws -> ObjectQuery.Result {
        try await data.find(ObjectQuery(className: className, parameters: parameters.objectValue ?? [:]))
    }

    private func storageError(_ body: () async throws -> Void) async -> StorageError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? StorageError
        }
    }

    @Test func anObjectIsCreatedReadUpdatedAndDeleted() async throws {
        let created = try await data.create(in: "Post", body: ["title": "hello", "at": ["__type": "Date", "iso": "2026-01-02T03:04:05.678Z"]], fetchWhenSave: false)
        let id = try #require(created["objectId"]?.stringValue)
        #expect(id.count == 24)
        #expect(created["createdAt"]?.stringValue?.hasSuffix("Z") == true)
        #expect(created["updatedAt"] == nil)

        let read = try #require(try await data.object(in: "Post", id: id, include: [], keys: []))
        #expect(read["title"] == "hello")
        #expect(read["at"]?["iso"] == "2026-01-02T03:04:05.678Z")
        #expect(read["createdAt"] == created["createdAt"])

        let updated = try await data.update(in: "Post", id: id, body: ["title": "changed", "views": ["__op": "Increment", "amount": 2]], condition: nil, fetchWhenSave: true)
        #expect(updated["views"] == 2)
        #expect(updated["title"] == "changed")
        #expect(updated["objectId"]?.stringValue == id)

        try await data.delete(in: "Post", id: id, condition: nil)
        #expect(try await data.object(in: "Post", id: id, include: [], keys: []) == nil)
    }

    @Test func operationsApplyToWhatTheFieldHolds() async throws {
        let id = try await create("Counter", ["n": 1, "tags": ["a", "b", "a"], "flags": 6, "nested": ["x": 1]])
        _ = try await data.update(in: "Counter", id: id, body: [
            "n": ["__op": "Decrement", "amount": 3],
            "tags": ["__op": "Remove", "objects": ["a"]],
            "flags": ["__op": "BitAnd", "value": 4],
            "nested.y": "deep",
            "fresh": ["__op": "Add", "objects": [1, 2]],
        ], condition: nil, fetchWhenSave: false)
        _ = try await data.update(in: "Counter", id: id, body: ["fresh": ["__op": "AddUnique", "objects": [2, 3]], "nested.x": ["__op": "Delete"]], condition: nil, fetchWhenSave: false)
        let object = try #require(try await data.object(in: "Counter", id: id, include: [], keys: []))
        #expect(object["n"] == -2)
        #expect(object["tags"] == ["b"])
        #expect(object["flags"] == 4)
        #expect(object["nested"] == ["y": "deep"])
        #expect(object["fresh"] == [1, 2, 3])
    }

    @Test func concurrentIncrementsAndAddsAreAllKept() async throws {
        let id = try await create("Counter", ["n": 0])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<60 {
                group.addTask {
                    _ = try await data.update(in: "Counter", id: id, body: [
                        "n": ["__op": "Increment", "amount": 1], "seen": ["__op": "Add", "objects": [.int(Int64(index))]],
                    ], condition: nil, fetchWhenSave: false)
                }
            }
            try await group.waitForAll()
        }
        let object = try #require(try await data.object(in: "Counter", id: id, include: [], keys: []))
        #expect(object["n"] == 60)
        #expect(Set(object["seen"]?.arrayValue ?? []).count == 60)
    }

    @Test func aConditionalUpdateThatDoesNotMatchChangesNothing() async throws {
        let id = try await create("Account", ["balance": 5])
        let refused = await storageError {
            _ = try await data.update(in: "Account", id: id, body: ["balance": ["__op": "Increment", "amount": -10]], condition: ["balance": ["$gte": 10]], fetchWhenSave: false)
        }
        #expect(refused?.code == 305)
        _ = try await data.update(in: "Account", id: id, body: ["balance": ["__op": "Increment", "amount": -5]], condition: ["balance": ["$gte": 5]], fetchWhenSave: false)
        #expect(try await data.object(in: "Account", id: id, include: [], keys: [])?["balance"] == 0)
        let missing = await storageError { _ = try await data.update(in: "Account", id: "000000000000000000000000", body: ["a": 1], condition: nil, fetchWhenSave: false) }
        #expect(missing?.code == 101)
    }

    @Test func queriesFilterSortPageAndCount() async throws {
        for (index, owner) in ["ann", "bob", "ann", "cat", "ann"].enumerated() {
            _ = try await create("Entry", ["owner": .string(owner), "rank": .int(Int64(index)), "blocked": [.string("x\(index)"), "shared"]])
        }
        let anns = try await find("Entry", ["where": #"{"owner":"ann"}"#, "order": "-rank", "count": "1", "limit": "2"])
        #expect(anns.results.map { $0["rank"] } == [4, 2])
        #expect(anns.count == 3)
        let skipped = try await find("Entry", ["where": ["owner": ["$in": ["bob", "cat"]]], "order": "rank", "skip": "1"])
        #expect(skipped.results.map { $0["owner"] } == ["cat"])
        // An array field equals each value it holds.
        #expect(try await find("Entry", ["where": ["blocked": "x3"]]).results.map { $0["owner"] } == ["cat"])
        #expect(try await find("Entry", ["where": ["blocked": "shared"], "limit": 0, "count": 1]).count == 5)
        // Ranges, $or, and conditions no index answers read the class.
        let ranged = try await find("Entry", ["where": ["$or": [["rank": ["$lt": 1]], ["rank": ["$gt": 3]]]], "order": "rank"])
        #expect(ranged.results.map { $0["rank"] } == [0, 4])
        let newest = try await find("Entry", ["order": "-createdAt", "limit": 1, "keys": "owner"])
        #expect(newest.results.first?["owner"] == "ann")
        #expect(newest.results.first?["rank"] == nil)
        #expect(newest.results.first?["objectId"] != nil)
    }

    @Test func includeExpandsPointersAlongAChain() async throws {
        let settings = try await create("Settings", ["nickname": "Ann", "push": true])
        let user = try await create("_User", ["username": "ann", "settings": ["__type": "Pointer", "className": "Settings", "objectId": .string(settings)]])
        _ = try await create("Post", ["author": ["__type": "Pointer", "className": "_User", "objectId": .string(user)], "title": "t"])
        let found = try await find("Post", ["include": "author.settings", "keys": "title,author.settings.nickname"])
        let author = try #require(found.results.first?["author"])
        #expect(author["__type"] == "Pointer")
        #expect(author["className"] == "_User")
        #expect(author["createdAt"] != nil)
        #expect(author["settings"]?["nickname"] == "Ann")
        #expect(author["settings"]?["push"] == nil)
        #expect(author["username"] == nil)
        // A pointer to nothing stays a pointer.
        _ = try await create("Post", ["author": ["__type": "Pointer", "className": "_User", "objectId": "gone"], "title": "orphan"])
        let orphan = try await find("Post", ["where": ["title": "orphan"], "include": "author"])
        #expect(orphan.results.first?["author"] == ["__type": "Pointer", "className": "_User", "objectId": "gone"])
    }

    @Test func subqueriesSelectByAnotherClass() async throws {
        let banned = try await create("_User", ["username": "mallory", "banned": true])
        let fine = try await create("_User", ["username": "alice", "banned": false])
        for user in [banned, fine] {
            _ = try await create("Message", ["from": ["__type": "Pointer", "className": "_User", "objectId": .string(user)], "name": .string(user)])
        }
        _ = try await create("Blacklist", ["username": "alice"])
        let fromBanned = try await find("Message", ["where": ["from": ["$inQuery": ["className": "_User", "where": ["banned": true]]]]])
        #expect(fromBanned.results.map { $0["name"] } == [.string(banned)])
        let notFromBanned = try await find("Message", ["where": ["from": ["$notInQuery": ["className": "_User", "where": ["banned": true]]]]])
        #expect(notFromBanned.results.map { $0["name"] } == [.string(fine)])
        let listed = try await find("_User", ["where": ["username": ["$select": ["query": ["className": "Blacklist", "where": [:]], "key": "username"]]]])
        #expect(listed.results.map { $0["objectId"] } == [.string(fine)])
    }

    @Test func aScanWalksTheClassPageByPage() async throws {
        for index in 0..<7 { _ = try await create("Item", ["n": .int(Int64(index)), "even": .bool(index % 2 == 0)]) }
        var cursor: String?
        var seen: [JSONValue] = []
        repeat {
            let page = try await data.scan(in: "Item", where: ["even": true], scanKey: nil, cursor: cursor, limit: 2)
            seen += page.results.compactMap { $0["n"] }
            cursor = page.cursor
        } while cursor != nil
        #expect(Set(seen) == [0, 2, 4, 6])
        let bad = await storageError { _ = try await data.scan(in: "Item", where: [:], scanKey: "n", cursor: nil, limit: 2) }
        #expect(bad?.code == 1)
    }

    @Test func badInputIsRefusedWithLeanCloudsCodes() async throws {
        #expect(await storageError { _ = try await create("9lives", ["a": 1]) }?.code == 103)
        #expect(await storageError { _ = try await create("Post", ["bad-key": 1]) }?.code == 105)
        #expect(await storageError { _ = try await create("Post", ["a.b": 1]) }?.code == 105)
        #expect(await storageError { _ = try await create("Post", ["n": ["__op": "Increment", "amount": "one"]]) }?.code == 111)
        #expect(await storageError { _ = try await create("Post", ["r": ["__op": "AddRelation", "objects": []]]) }?.code == 1)
        #expect(await storageError { _ = try await find("Post", ["where": ["a": ["$near": 1]]]) }?.code == 102)
        #expect(await storageError { _ = try await find("Post", ["where": "{"]) }?.code == 107)
        #expect(await storageError { _ = try await create("_Conversation", ["name": "x"]) }?.code == 119)
        // SDK flags and LeanStorage's own keys in a body are left out.
        let id = try await create("Post", ["__ignore_hooks": ["beforeSave"], "objectId": "mine", "title": "kept"])
        let stored = try #require(try await data.object(in: "Post", id: id, include: [], keys: []))
        #expect(stored["__ignore_hooks"] == nil)
        #expect(stored["objectId"]?.stringValue == id)
    }

    @Test func importedRowsKeepTheirIDsAndDates() async throws {
        let row: JSONValue = [
            "objectId": "5cc6abe117b54d7448151efc", "createdAt": "2019-04-29T07:46:41.687Z",
            "updatedAt": ["__type": "Date", "iso": "2020-11-04T03:29:17.441Z"], "likes": 123,
        ]
        let document = try StoredDocument(importing: row, className: "Post", now: 0)
        #expect(document.objectID == "5cc6abe117b54d7448151efc")
        #expect(document.createdAt == 1_556_524_001_687)
        #expect(document.updatedAt == 1_604_460_557_441)
        #expect(document.fields == ["likes": 123])
        #expect(document.json["createdAt"] == "2019-04-29T07:46:41.687Z")
        #expect(throws: StorageError.self) { try StoredDocument(importing: ["bad key": 1], className: "Post", now: 0) }
        #expect(try StoredDocument(importing: ["a": 1], className: "Post", now: 5000).createdAt == 5000)
    }

    /// An import run twice, or over overlapping exports, stores each object once, with its
    /// index entries: of two versions the newer (`updatedAt`) stays, whether it is the one
    /// there or the one coming in, and one changed here since stays as it is.
    @Test func importingKeepsTheNewerVersionAndStoresTheRest() async throws {
        let store = try #require(AppDataStore.current)
        func documents(_ rows: [JSONValue]) throws -> [StoredDocument] {
            try rows.map { try StoredDocument(importing: $0, className: "Blacklist", now: 1000) }
        }
        func at(_ milliseconds: Int64) -> JSONValue { .string(ISODate.string(milliseconds: milliseconds)) }
        let first = try await store.importDocuments(try documents([
            ["objectId": "a1", "owner": "bob"], ["objectId": "a2", "owner": "eve"], ["objectId": "a1", "owner": "second copy"],
        ]))
        #expect(first == ImportOutcome(stored: 2, alreadyThere: 1))
        _ = try await data.update(in: "Blacklist", id: "a2", body: ["owner": "changed here"], condition: nil, fetchWhenSave: false)
        let again = try await store.importDocuments(try documents([
            ["objectId": "a2", "owner": "eve"], ["objectId": "a3", "owner": "ann"],
            // A later export's version of a1, and two versions of a4 in one batch, the newer first.
            ["objectId": "a1", "owner": "bob moved", "updatedAt": at(2000)],
            ["objectId": "a4", "owner": "late", "updatedAt": at(3000)], ["objectId": "a4", "owner": "early", "updatedAt": at(2000)],
        ]))
        #expect(again == ImportOutcome(stored: 3, replaced: 1, alreadyThere: 2))
        let found = try await find("Blacklist", ["order": "objectId"])
        #expect(found.results.map { $0["owner"] } == ["bob moved", "changed here", "ann", "late"])
        #expect(found.results.first?["updatedAt"] == at(2000))
        // Index entries follow the version kept.
        #expect(try await find("Blacklist", ["where": ["owner": "bob moved"]]).results.count == 1)
        for gone in ["bob", "second copy", "early"] {
            #expect(try await find("Blacklist", ["where": ["owner": .string(gone)]]).results.isEmpty)
        }
    }
}
