import Foundation
import Testing

/// `/1.1/batch` and `/1.1/scan/classes` over real HTTP, with requests shaped as LeanCloud's
/// SDKs send them.
@Suite struct StorageRESTBatchTests {
    @Test func aBatchRunsInOrderAndAnswersEachWithSuccessOrError() async throws {
        let server = try await TestServer.start()
        let first = try await server.create("Item", ["name": "first", "n": 1])
        let second = try await server.create("Item", ["name": "second"])
        let third = try await server.create("Item", ["name": "third"])
        let missing = "000000000000000000000000"
        let (status, answers) = try await server.restList("POST", "/1.1/batch", body: ["requests": [
            // As the Python and JavaScript SDKs send them: paths with /1.1.
            ["method": "POST", "path": "/1.1/classes/Item", "body": ["name": "new", "__ignore_hooks": ["beforeSave"]]],
            ["method": "PUT", "path": "/1.1/classes/Item/\(first)", "body": ["n": ["__op": "Increment", "amount": 5]], "params": ["fetchWhenSave": true]],
            ["method": "PUT", "path": "/1.1/classes/Item/\(missing)", "body": ["n": 1]],
            // The JavaScript SDK's destroyAll: one DELETE for several ids of a class.
            ["method": "DELETE", "path": "/1.1/classes/Item/\(second),\(third)", "body": [:]],
            // Without /1.1, and with the query in the path.
            ["method": "GET", "path": "/classes/Item/\(first)?keys=n"],
            // The JavaScript SDK's long query: `where` as a JSON object in params.
            ["method": "GET", "path": "/1.1/classes/Item", "params": ["where": ["name": ["$in": ["first", "second", "new"]]], "order": "name", "count": 1]],
            ["method": "POST", "path": "/1.1/classes/_Conversation", "body": ["name": "no"]],
            ["method": "POST", "path": "/1.1/users", "body": ["username": "x"]],
            ["method": "GET", "path": "/1.1/classes/Item/\(missing)"],
        ]])
        #expect(status == 200 && answers.count == 9)
        let created = try #require(answers[0]["success"] as? [String: Any])
        #expect(Set(created.keys) == ["objectId", "createdAt"])
        #expect((answers[1]["success"] as? [String: Any])?["n"] as? Int == 6)
        #expect((answers[2]["error"] as? [String: Any])?["code"] as? Int == 101)
        #expect((answers[3]["success"] as? [String: Any])?.isEmpty == true)
        let fetched = try #require(answers[4]["success"] as? [String: Any])
        #expect(fetched["n"] as? Int == 6 && fetched["name"] == nil)
        let found = try #require(answers[5]["success"] as? [String: Any])
        #expect((found["results"] as? [[String: Any]])?.map { $0["name"] as? String } == ["first", "new"] && found["count"] as? Int == 2)
        #expect((answers[6]["error"] as? [String: Any])?["code"] as? Int == 119)
        #expect((answers[7]["error"] as? [String: Any])?["code"] as? Int == 107)
        #expect((answers[8]["success"] as? [String: Any])?.isEmpty == true)

        #expect(try await server.find("Item", ["order": "name"]).compactMap { $0["name"] as? String } == ["first", "new"])
        try await server.stop()
    }

    @Test func aBatchThatIsNotOneIsRefusedWith107() async throws {
        let server = try await TestServer.start()
        for raw in [#"{"requests":{}}"#, #"{}"#, #"[1]"#, #"{"requests":[1]"#] {
            let (status, answer) = try await server.rest("POST", "/1.1/batch", raw: raw)
            #expect(status == 400 && answer["code"] as? Int == 107, "\(raw)")
        }
        // An element that is not a call fails alone.
        let (status, answers) = try await server.restList("POST", "/1.1/batch", body: ["requests": [1, ["method": "GET"], ["method": "GET", "path": "/1.1/classes/Item"]]])
        #expect(status == 200 && answers.map { ($0["error"] as? [String: Any])?["code"] as? Int } == [107, 107, nil])
        try await server.stop()
    }

    /// A scan walks the whole class a page at a time, each object once, with `where`.
    @Test func aScanWalksAClassAcrossPages() async throws {
        let server = try await TestServer.start()
        var ids: Set<String> = []
        for index in 0..<25 { ids.insert(try await server.create("Log", ["index": index, "even": index % 2 == 0])) }

        func walk(_ query: KeyValuePairs<String, String>) async throws -> (pages: [Int], ids: [String]) {
            var pages: [Int] = [], seen: [String] = []
            var cursor: String?
            repeat {
                var parameters = Array(query)
                if let cursor { parameters.append(("cursor", cursor)) }
                let path = "/1.1/scan/classes/Log?" + parameters.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)" }.joined(separator: "&")
                let (status, page) = try await server.rest("GET", path)
                #expect(status == 200)
                let results = try #require(page["results"] as? [[String: Any]], "\(page)")
                pages.append(results.count)
                seen += results.compactMap { $0["objectId"] as? String }
                cursor = page["cursor"] as? String
                #expect(cursor != nil || page["cursor"] is NSNull)
            } while cursor != nil && pages.count < 10
            return (pages, seen)
        }
        let all = try await walk(["limit": "10"])
        #expect(all.pages == [10, 10, 5] && all.ids == all.ids.sorted() && Set(all.ids) == ids && all.ids.count == 25)
        let newestFirst = try await walk(["limit": "10", "scan_key": "-createdAt"])
        #expect(Set(newestFirst.ids) == ids && newestFirst.ids.count == 25)
        let even = try await walk(["limit": "5", "where": #"{"even":true}"#])
        #expect(even.ids.count == 13 && Set(even.ids).isSubset(of: ids))
        try await server.stop()
    }
}
