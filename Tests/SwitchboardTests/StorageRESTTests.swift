import Foundation
import Testing

/// LeanStorage's REST API over the app's data, over real HTTP with the master key, as an
/// app's backend calls it.
@Suite struct StorageRESTTests {
    @Test func anObjectIsCreatedReadChangedAndDeletedAsOnLeanStorage() async throws {
        let server = try await TestServer.start()
        let (created, data) = try await server.restExchange("POST", "/1.1/classes/Blacklist", body: ["owner": "alice", "blocked": ["bob"], "n": 1, "note": "x"])
        #expect(created.statusCode == 201)
        let answer = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        // Only these two, as LeanStorage answered.
        #expect(Set(answer.keys) == ["objectId", "createdAt"])
        let id = try #require(answer["objectId"] as? String)
        #expect(created.value(forHTTPHeaderField: "Location") == "/1.1/classes/Blacklist/\(id)")

        let (read, object) = try await server.rest("GET", "/1.1/classes/Blacklist/\(id)")
        #expect(read == 200 && object["owner"] as? String == "alice" && object["blocked"] as? [String] == ["bob"] && object["objectId"] as? String == id)
        #expect(object["createdAt"] as? String == answer["createdAt"] as? String && object["updatedAt"] as? String == answer["createdAt"] as? String)

        let (updated, change) = try await server.rest("PUT", "/1.1/classes/Blacklist/\(id)", body: [
            "n": ["__op": "Increment", "amount": 2], "blocked": ["__op": "AddUnique", "objects": ["carol", "bob"]], "note": ["__op": "Delete"],
        ])
        #expect(updated == 200 && Set(change.keys) == ["objectId", "updatedAt"])
        // `new=true` (the JavaScript SDK's save) and `fetchWhenSave=true` (the Python SDK's)
        // answer the changed fields with it.
        let (_, fetched) = try await server.rest("PUT", "/1.1/classes/Blacklist/\(id)?new=true", body: ["n": ["__op": "Decrement", "amount": 1]])
        #expect(fetched["n"] as? Int == 2 && fetched["owner"] == nil)
        let (_, fetchedAgain) = try await server.rest("PUT", "/1.1/classes/Blacklist/\(id)?fetchWhenSave=true", body: ["blocked": ["__op": "Remove", "objects": ["bob"]]])
        #expect(fetchedAgain["blocked"] as? [String] == ["carol"])
        let (_, now) = try await server.rest("GET", "/1.1/classes/Blacklist/\(id)")
        #expect(now["n"] as? Int == 2 && now["blocked"] as? [String] == ["carol"] && now["note"] == nil)
        #expect((now["updatedAt"] as? String ?? "") >= (now["createdAt"] as? String ?? "~"))

        // The Python SDK sends `{}` with a DELETE; the answer is `{}`, a JSON body.
        let (deleted, body) = try await server.restData("DELETE", "/1.1/classes/Blacklist/\(id)", raw: "{}")
        #expect(deleted == 200 && String(decoding: body, as: UTF8.self) == "{}")
        // A missing object reads as `{}` with 200, as LeanStorage answered.
        let (missing, nothing) = try await server.restData("GET", "/1.1/classes/Blacklist/\(id)")
        #expect(missing == 200 && String(decoding: nothing, as: UTF8.self) == "{}")
        let (gone, refusal) = try await server.rest("PUT", "/1.1/classes/Blacklist/\(id)", body: ["n": 1])
        #expect(gone == 404 && refusal["code"] as? Int == 101)
        // Deleting it again is not an error.
        #expect(try await server.restData("DELETE", "/1.1/classes/Blacklist/\(id)").0 == 200)

        let (whole, all) = try await server.rest("POST", "/1.1/classes/Blacklist?fetchWhenSave=true", body: ["owner": "dave"])
        #expect(whole == 201 && all["owner"] as? String == "dave" && all["updatedAt"] is String)
        try await server.stop()
    }

    /// As the SDKs send it: `application/json;charset=utf-8` (Python) or `;charset=UTF-8` (JavaScript).
    @Test func aContentTypeWithACharsetIsTaken() async throws {
        let server = try await TestServer.start()
        for charset in ["application/json;charset=utf-8", "application/json; charset=UTF-8"] {
            let (response, _) = try await server.restExchange("POST", "/1.1/classes/Note", raw: #"{"text":"héllo"}"#, headers: ["Content-Type": charset])
            #expect(response.statusCode == 201, "\(charset)")
        }
        #expect(try await server.find("Note", ["where": #"{"text":"héllo"}"#]).count == 2)
        try await server.stop()
    }

    @Test func queriesTakeWhereOrderLimitSkipKeysIncludeAndCount() async throws {
        let server = try await TestServer.start()
        let team = try await server.create("Team", ["name": "red", "city": "Paris"])
        for (player, points) in [("ann", 30), ("ben", 10), ("cat", 50), ("dan", 20), ("eve", 40)] {
            _ = try await server.create("Score", [
                "player": player, "points": points, "tags": points >= 30 ? ["top"] : [],
                "team": ["__type": "Pointer", "className": "Team", "objectId": team],
            ])
        }
        func players(_ query: KeyValuePairs<String, String>) async throws -> [String] {
            try await server.find("Score", query).compactMap { $0["player"] as? String }
        }
        #expect(try await players(["where": #"{"points":{"$gte":20}}"#, "order": "-points"]) == ["cat", "eve", "ann", "dan"])
        #expect(try await players(["where": #"{"points":{"$gte":20}}"#, "order": "points", "skip": "1", "limit": "2"]) == ["ann", "eve"])
        #expect(try await players(["where": #"{"tags":"top","player":{"$in":["ann","cat","dan"]}}"#, "order": "player"]) == ["ann", "cat"])
        // A top-level array is `$and`, as LeanStorage took it.
        #expect(try await players(["where": #"[{"points":{"$ne":30}},{"points":{"$gt":25}}]"#, "order": "player"]) == ["cat", "eve"])

        let selected = try #require(try await server.find("Score", ["where": #"{"player":"ben"}"#, "keys": "player"]).first)
        #expect(Set(selected.keys) == ["player", "objectId", "createdAt", "updatedAt"])
        let included = try #require(try await server.find("Score", ["where": #"{"player":"ben"}"#, "include": "team", "keys": "player,team.name"]).first)
        let expanded = try #require(included["team"] as? [String: Any])
        // An included pointer keeps `__type` and `className`, with `createdAt` the Python SDK
        // looks for to count it as fetched.
        #expect(expanded["name"] as? String == "red" && expanded["city"] == nil && expanded["__type"] as? String == "Pointer")
        #expect(expanded["className"] as? String == "Team" && expanded["objectId"] as? String == team && expanded["createdAt"] is String)

        let (_, counted) = try await server.rest("GET", TestServer.path("/1.1/classes/Score", ["where": #"{"points":{"$lt":45}}"#, "count": "1", "limit": "0"]))
        #expect(counted["count"] as? Int == 4 && (counted["results"] as? [Any])?.isEmpty == true)
        let (_, countedWithSome) = try await server.rest("GET", TestServer.path("/1.1/classes/Score", ["count": "1", "limit": "2", "order": "points"]))
        #expect(countedWithSome["count"] as? Int == 5 && (countedWithSome["results"] as? [[String: Any]])?.map { $0["player"] as? String } == ["ben", "dan"])

        let one = try #require(try await server.find("Score", ["where": #"{"player":"cat"}"#]).first?["objectId"] as? String)
        let (_, got) = try await server.rest("GET", TestServer.path("/1.1/classes/Score/\(one)", ["include": "team", "keys": "team,points"]))
        #expect(got["points"] as? Int == 50 && got["player"] == nil && (got["team"] as? [String: Any])?["city"] as? String == "Paris")
        try await server.stop()
    }

    /// Increments sent at once all count: each is applied inside the store's transaction.
    @Test func concurrentIncrementsOverRESTAllCount() async throws {
        let server = try await TestServer.start()
        let id = try await server.create("Counter", ["n": 0])
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 {
                group.addTask { try await server.rest("PUT", "/1.1/classes/Counter/\(id)", body: ["n": ["__op": "Increment", "amount": 1]]).0 }
            }
            for try await status in group { #expect(status == 200) }
        }
        #expect(try await server.rest("GET", "/1.1/classes/Counter/\(id)").1["n"] as? Int == 20)
        try await server.stop()
    }

    /// `?where=` makes an update or a delete conditional: 305 when the object does not match.
    @Test func aConditionalUpdateOrDeleteThatDoesNotMatchIs305() async throws {
        let server = try await TestServer.start()
        let id = try await server.create("Stock", ["left": 1])
        let take = TestServer.path("/1.1/classes/Stock/\(id)", ["where": #"{"left":{"$gt":0}}"#])
        #expect(try await server.rest("PUT", take, body: ["left": ["__op": "Decrement", "amount": 1]]).0 == 200)
        let (status, refusal) = try await server.rest("PUT", take, body: ["left": ["__op": "Decrement", "amount": 1]])
        #expect(status == 400 && refusal["code"] as? Int == 305 && refusal["error"] as? String == "No effect on updating/deleting a document.")
        #expect(try await server.rest("GET", "/1.1/classes/Stock/\(id)").1["left"] as? Int == 0)

        let (notDeleted, kept) = try await server.rest("DELETE", TestServer.path("/1.1/classes/Stock/\(id)", ["where": #"{"left":{"$gt":0}}"#]))
        #expect(notDeleted == 400 && kept["code"] as? Int == 305)
        #expect(try await server.rest("GET", "/1.1/classes/Stock/\(id)").1["objectId"] as? String == id)
        #expect(try await server.rest("DELETE", TestServer.path("/1.1/classes/Stock/\(id)", ["where": #"{"left":0}"#])).0 == 200)
        #expect(try await server.rest("GET", "/1.1/classes/Stock/\(id)").1.isEmpty)
        try await server.stop()
    }
}
