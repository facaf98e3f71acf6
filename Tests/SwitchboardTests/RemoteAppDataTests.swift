import Foundation
import Synchronization
import SwitchboardData
import SwitchboardJS
import SwitchboardJSON
@testable import SwitchboardServer
import SwitchboardWire
import Testing

/// `hooks.storage`: scripts' app data on another LeanStorage server, called over real HTTP
/// on loopback as LeanCloud's SDKs call it; `_Conversation` stays the IM store's.
@Suite struct RemoteAppDataTests {
    static let appID = "remote-app"
    static let masterKey = "remote-master-key"

    private static func data(
        _ storage: FakeLeanStorage, timeout: Duration = .seconds(10), conversations: any IMClass = FixedConversations()
    ) -> RemoteAppData {
        var settings = RemoteStorage(url: storage.url, appID: appID, masterKey: masterKey)
        settings.timeout = timeout
        return RemoteAppData(storage: settings, conversations: conversations)
    }

    /// The `StorageError` a call failed with.
    private static func refusal(_ call: () async throws -> Void) async -> StorageError? {
        do {
            try await call()
            Issue.record("the call did not fail")
            return nil
        } catch let error as StorageError {
            return error
        } catch {
            Issue.record("not a StorageError: \(error)")
            return nil
        }
    }

    @Test func eachCallIsLeanStoragesRESTCallSignedWithTheMasterKey() async throws {
        let storage = try await FakeLeanStorage.start()
        defer { Task { await storage.stop() } }
        let post = #"{"objectId":"p1","title":"hi","createdAt":"2026-01-02T03:04:05.006Z","updatedAt":"2026-01-02T03:04:05.006Z"}"#
        storage.answering { seen in
            switch (seen.method, seen.path) {
            case ("POST", _): (201, #"{"objectId":"p1","createdAt":"2026-01-02T03:04:05.006Z"}"#)
            case ("PUT", _): (200, #"{"updatedAt":"2026-01-02T03:04:06.000Z","n":3}"#)
            case ("GET", "/1.1/classes/Post/p1"): (200, post)
            case ("GET", "/1.1/classes/Post"): (200, #"{"results":[\#(post)],"count":7}"#)
            case ("GET", "/1.1/scan/classes/Post"): (200, #"{"results":[\#(post)],"cursor":"next-page"}"#)
            default: (200, "{}")
            }
        }
        let data = Self.data(storage)
        let body: [String: JSONValue] = ["title": "a+b & c/d é", "n": ["__op": "Increment", "amount": 1]]
        #expect(try await data.create(in: "Post", body: body, fetchWhenSave: false) == ["objectId": "p1", "createdAt": "2026-01-02T03:04:05.006Z"])
        #expect(try await data.object(in: "Post", id: "p1", include: ["author"], keys: ["title", "author.nick"]) == (try JSONValue(parsing: post)))
        // LeanStorage answers an id it does not have with {}.
        #expect(try await data.object(in: "Post", id: "gone", include: [], keys: []) == nil)
        let updated = try await data.update(in: "Post", id: "p1", body: ["n": ["__op": "Increment", "amount": 2]], condition: ["n": ["$gt": 0]], fetchWhenSave: true)
        #expect(updated == ["objectId": "p1", "updatedAt": "2026-01-02T03:04:06.000Z", "n": 3])
        try await data.delete(in: "Post", id: "p1", condition: nil)
        let whereDocument: JSONValue = ["title": ["$regex": "^a+b", "$options": "i"], "tags": ["$in": ["x & y=z", "é"]]]
        let query = ObjectQuery(
            className: "Post", whereDocument: whereDocument, order: "-createdAt,title", skip: 5, limit: 20, keys: ["title"], include: ["author", "post.author"], count: true
        )
        let found = try await data.find(query)
        #expect(found.results == [try JSONValue(parsing: post)] && found.count == 7)
        let page = try await data.scan(in: "Post", where: ["n": 1], scanKey: "-updatedAt", cursor: "this-page", limit: 50)
        #expect(page.results.count == 1 && page.cursor == "next-page")

        let requests = storage.requests
        #expect(requests.map { "\($0.method) \($0.path)" } == [
            "POST /1.1/classes/Post", "GET /1.1/classes/Post/p1", "GET /1.1/classes/Post/gone", "PUT /1.1/classes/Post/p1",
            "DELETE /1.1/classes/Post/p1", "GET /1.1/classes/Post", "GET /1.1/scan/classes/Post",
        ])
        for request in requests {
            #expect(request.headers["x-lc-id"] == Self.appID)
            #expect(RequestSignature.isValidMaster(request.headers["x-lc-sign"] ?? "", masterKey: Self.masterKey), "\(request.headers)")
            #expect(request.headers["content-type"] == "application/json")
        }
        #expect(try JSONValue(parsing: requests[0].body) == .object(body) && requests[0].query.isEmpty)
        #expect(requests[1].query == ["include": "author", "keys": "title,author.nick"])
        #expect(requests[3].query["fetchWhenSave"] == "true" && requests[3].body == #"{"n":{"__op":"Increment","amount":2}}"#)
        #expect(try JSONValue(parsing: requests[3].query["where"] ?? "") == ["n": ["$gt": 0]])
        #expect(requests[4].query.isEmpty)
        // Form decoding (LeanCloud's, Python's) reads a `+` as a space.
        #expect(!requests[5].rawQuery.contains("+"))
        var findQuery = requests[5].query
        #expect(try JSONValue(parsing: findQuery.removeValue(forKey: "where") ?? "") == whereDocument)
        #expect(findQuery == ["order": "-createdAt,title", "skip": "5", "limit": "20", "count": "1", "keys": "title", "include": "author,post.author"])
        var scanQuery = requests[6].query
        #expect(try JSONValue(parsing: scanQuery.removeValue(forKey: "where") ?? "") == ["n": 1])
        #expect(scanQuery == ["scan_key": "-updatedAt", "cursor": "this-page", "limit": "50"])
    }

    /// The whole round: another Switchboard serving LeanStorage's REST API as the external store.
    @Test func overSwitchboardsOwnStorageAPIEveryCallDoesWhatItDoesLocally() async throws {
        let server = try await TestServer.start()
        let data = RemoteAppData(
            storage: RemoteStorage(url: URL(string: "http://127.0.0.1:\(server.port)/")!, appID: server.config.appID, masterKey: server.config.masterKey),
            conversations: FixedConversations()
        )
        let settings = try #require(try await data.create(in: "Settings", body: ["push": true, "tone": "a+b & c"], fetchWhenSave: false)["objectId"]?.stringValue)
        let pointer: JSONValue = ["__type": "Pointer", "className": "Settings", "objectId": .string(settings)]
        let alice = try await data.create(in: "Profile", body: ["name": "alice", "n": 1, "settings": pointer], fetchWhenSave: true)
        #expect(alice["name"] == "alice" && alice["updatedAt"] != nil)
        let id = try #require(alice["objectId"]?.stringValue)
        _ = try await data.create(in: "Profile", body: ["name": "bob", "n": 5], fetchWhenSave: false)

        let read = try #require(try await data.object(in: "Profile", id: id, include: ["settings"], keys: ["name", "settings.tone"]))
        #expect(read["name"] == "alice" && read["n"] == nil && read["settings"]?["tone"] == "a+b & c" && read["settings"]?["push"] == nil)
        #expect(try await data.object(in: "Profile", id: "000000000000000000000000", include: [], keys: []) == nil)

        let refused = await Self.refusal { _ = try await data.update(in: "Profile", id: id, body: ["n": 9], condition: ["n": ["$gt": 1]], fetchWhenSave: false) }
        #expect(refused == StorageError.noEffect)
        let changed = try await data.update(in: "Profile", id: id, body: ["n": ["__op": "Increment", "amount": 2]], condition: ["n": 1], fetchWhenSave: true)
        #expect(changed["objectId"] == .string(id) && changed["n"] == 3 && changed["updatedAt"] != nil)

        let found = try await data.find(ObjectQuery(
            className: "Profile", whereDocument: ["n": ["$gte": 3]], order: "-n", limit: 1, keys: ["name", "settings"], include: ["settings"], count: true
        ))
        #expect(found.count == 2 && found.results.map { $0["name"] } == ["bob"])
        let withSettings = try await data.find(ObjectQuery(className: "Profile", whereDocument: ["settings": ["$exists": true]], include: ["settings"]))
        #expect(withSettings.results.map { $0["settings"]?["push"] } == [true])
        #expect(try await data.find(ObjectQuery(className: "Settings", whereDocument: ["tone": "a+b & c"])).results.count == 1)

        var names: [JSONValue?] = []
        var cursor: String?
        repeat {
            let page = try await data.scan(in: "Profile", where: [:], scanKey: "createdAt", cursor: cursor, limit: 1)
            names += page.results.map { $0["name"] }
            cursor = page.cursor
        } while cursor != nil
        #expect(names == ["alice", "bob"])

        try await data.delete(in: "Profile", id: id, condition: nil)
        #expect(try await data.object(in: "Profile", id: id, include: [], keys: []) == nil)
        let badWhere = await Self.refusal { _ = try await data.find(ObjectQuery(className: "Profile", whereDocument: ["n": ["$bogus": 1]])) }
        #expect(badWhere?.code == 102)
        try await server.stop()
    }

    @Test func theServersRefusalsKeepTheirCodesAndWhatIsNotLeanStorageIsNamed() async throws {
        let storage = try await FakeLeanStorage.start()
        defer { Task { await storage.stop() } }
        let data = Self.data(storage)
        let server = "LeanStorage at http://127.0.0.1:\(storage.url.port ?? 0)"
        let find = { _ = try await data.find(ObjectQuery(className: "Post")) }

        storage.answering { _ in (404, #"{"code":101,"error":"Class or object doesn't exists."}"#) }
        #expect(await Self.refusal(find) == StorageError(code: 101, "Class or object doesn't exists.", status: 404))
        storage.answering { _ in (400, #"{"code":305,"error":"No effect on updating/deleting a document."}"#) }
        let conditional = await Self.refusal { try await data.delete(in: "Post", id: "p1", condition: ["n": 1]) }
        #expect(conditional?.code == 305)

        storage.answering { _ in (502, "<html>Bad Gateway</html>") }
        let gateway = await Self.refusal(find)
        #expect(gateway?.code == 1)
        #expect(gateway?.message == "\(server) answered GET /1.1/classes/Post with HTTP 502 and no LeanStorage answer: <html>Bad Gateway</html>")
        storage.answering { _ in (200, "[]") }
        #expect(await Self.refusal(find)?.message.hasPrefix("\(server) answered GET /1.1/classes/Post with HTTP 200") == true)
        storage.answering { _ in (200, #"{"rows":[]}"#) }
        #expect(await Self.refusal(find)?.message == #"\#(server) answered a query of Post with {"rows":[]}."#)
        storage.answering { _ in (201, #"{"createdAt":"2026-01-02T03:04:05.006Z"}"#) }
        let create = await Self.refusal { _ = try await data.create(in: "Post", body: [:], fetchWhenSave: false) }
        #expect(create?.code == 1 && create?.message.contains("a create in Post") == true)
    }

    @Test func aServerThatDoesNotAnswerInTimeOrCannotBeReachedIsAClearError() async throws {
        let storage = try await FakeLeanStorage.start()
        defer { Task { await storage.stop() } }
        storage.delay.withLock { $0 = .seconds(5) }
        let slow = await Self.refusal { _ = try await Self.data(storage, timeout: .milliseconds(200)).find(ObjectQuery(className: "Post")) }
        #expect(slow?.code == 124)
        #expect(slow?.message.contains("LeanStorage at http://127.0.0.1:\(storage.url.port ?? 0) did not answer GET /1.1/classes/Post") == true)

        let nowhere = RemoteAppData(storage: RemoteStorage(url: URL(string: "http://127.0.0.1:1")!, appID: Self.appID, masterKey: Self.masterKey), conversations: FixedConversations())
        let refused = await Self.refusal { _ = try await nowhere.object(in: "Post", id: "p1", include: [], keys: []) }
        #expect(refused?.code == 1)
        #expect(refused?.message.hasPrefix("LeanStorage at http://127.0.0.1:1 cannot be reached (GET /1.1/classes/Post/p1)") == true)
    }

    @Test func conversationsAreTheIMStoresAndNeverSentToTheServer() async throws {
        let storage = try await FakeLeanStorage.start()
        defer { Task { await storage.stop() } }
        let conversations = FixedConversations()
        let data = Self.data(storage, conversations: conversations)
        let found = try await data.find(ObjectQuery(className: "_Conversation", whereDocument: ["m": "alice"], skip: 1, limit: 1, keys: ["name"], count: true))
        #expect(found.results == [["objectId": "c2", "name": "second"]] && found.count == 2)
        #expect(conversations.asked == [["m": "alice"]])
        let one = try await data.object(in: "_Conversation", id: "c1", include: [], keys: [])
        #expect(one?["name"] == "first")

        let writes: [() async throws -> Void] = [
            { _ = try await data.create(in: "_Conversation", body: ["name": "x"], fetchWhenSave: false) },
            { _ = try await data.update(in: "_Conversation", id: "c1", body: ["name": "x"], condition: nil, fetchWhenSave: false) },
            { try await data.delete(in: "_Conversation", id: "c1", condition: nil) },
        ]
        for write in writes { #expect(await Self.refusal(write)?.code == 119) }
        // Walked from the IM store too, a page at a time.
        var walked: [JSONValue] = [], cursor: String?
        repeat {
            let page = try await data.scan(in: "_Conversation", where: [:], scanKey: nil, cursor: cursor, limit: 1)
            walked += page.results.compactMap { $0["objectId"] }
            cursor = page.cursor
        } while cursor != nil
        #expect(walked == ["c1", "c2"])
        // Names that are not LeanStorage's are refused here, as the local store refuses them.
        #expect(await Self.refusal { _ = try await data.find(ObjectQuery(className: "Post/../x")) }?.code == 103)
        #expect(await Self.refusal { _ = try await data.object(in: "Post", id: "p1?keys=x", include: [], keys: []) }?.code == 104)
        #expect(storage.requests.isEmpty)
    }

    /// What a hook gets from `new AV.Query(...).find()` over `data`, as `code message` when it fails.
    private static func scriptFind(_ className: String, data: any AppData, budget: Duration = .seconds(10)) async throws -> ScriptTrial.Report.Outcome {
        try await ScriptTrial.run(source: """
            AV.Cloud.onIMMessageReceived(() => new AV.Query('\(className)').find()
              .then((found) => ({ content: found.map((o) => o.id).join(',') }), (error) => ({ content: error.code + ' ' + error.message })));
            """, file: "find.js", hook: "_messageReceived", paramsJSON: "{}", budget: budget, services: ScriptServices(data: data)).outcome
    }

    @Test func theServersRefusalReachesTheScriptWithItsCode() async throws {
        let storage = try await FakeLeanStorage.start()
        defer { Task { await storage.stop() } }
        storage.answering { _ in (404, #"{"code":101,"error":"Class or object doesn't exists."}"#) }
        #expect(try await Self.scriptFind("Blacklist", data: Self.data(storage)) == .value(#"{"content":"101 Class or object doesn't exists."}"#))
        // _Conversation is the IM store's, whatever the server says.
        #expect(try await Self.scriptFind("_Conversation", data: Self.data(storage)) == .value(#"{"content":"c1,c2"}"#))
        #expect(storage.requests.map(\.path) == ["/1.1/classes/Blacklist"])
    }

    /// A hung server costs a hook call its budget, or `timeoutMs` when that is shorter, and
    /// the script hears of it in time to answer.
    @Test func aHungServerGivesTheScriptATimeOutInsteadOfHangingIt() async throws {
        let storage = try await FakeLeanStorage.start()
        defer { Task { await storage.stop() } }
        storage.delay.withLock { $0 = .seconds(5) }
        let budgetFirst = try await Self.scriptFind("Blacklist", data: Self.data(storage), budget: .seconds(2))
        #expect(budgetFirst == .value(#"{"content":"124 The request timed out: the hook call's budget was spent before find on Blacklist answered."}"#))
        let timeoutFirst = try await Self.scriptFind("Blacklist", data: Self.data(storage, timeout: .milliseconds(200)))
        let server = "LeanStorage at http://127.0.0.1:\(storage.url.port ?? 0)"
        #expect(timeoutFirst == .value(#"{"content":"124 The request timed out: \#(server) did not answer GET /1.1/classes/Blacklist within 0.2 seconds (hooks.storage.timeoutMs)."}"#))
    }

    /// `hooks.storage` on a running server: its hooks read and write the other server's
    /// data, while its own REST API keeps serving its own.
    @Test func aServerWithHooksStorageGivesItsHooksTheOtherServersData() async throws {
        let storage = try await TestServer.start()
        let server = try await TestServer.start(scripts: ["blacklist.js": """
            AV.Cloud.onIMMessageReceived(async (request) => {
              const blocked = await new AV.Query('Blacklist').equalTo('blocked', request.params.fromPeer).first();
              if (blocked) return { drop: true, code: 7, detail: 'blocked' };
              await new AV.Object('Seen', { from: request.params.fromPeer }).save();
              return {};
            });
            """]) { config in
            // Room for loopback round trips while the rest of the suite loads the machine.
            config.hooks.defaultBudget = .seconds(10)
            config.hookStorage = RemoteStorage(url: URL(string: "http://127.0.0.1:\(storage.port)")!, appID: storage.config.appID, masterKey: storage.config.masterKey)
        }
        // The app's backend writes the blacklist where the hooks read it.
        _ = try await storage.create("Blacklist", ["blocked": "mallory"])
        let mallory = try await server.login("mallory")
        let alice = try await server.login("alice")
        let malloryChat = try await mallory.startConversation(members: ["bob"])
        let refused = try await mallory.request(.text("hi", cid: malloryChat))
        #expect(refused.ackMessage.code == 4402 && refused.ackMessage.appCode == 7)
        let aliceChat = try await alice.startConversation(members: ["bob"])
        try await alice.sendText("hi", cid: aliceChat)
        #expect(try await storage.find("Seen", [:]).map { $0["from"] as? String } == ["alice"])
        #expect(try await server.find("Seen", [:]).isEmpty)
        #expect(try await server.find("Blacklist", [:]).isEmpty)
        try await server.stop()
        try await storage.stop()
    }

    @Test func theConfigNamesTheServerAndRefusesWhatCannotWork() throws {
        let path = TestServer.temporaryDirectory() + "/switchboard.yaml"
        try """
            app: { id: the-app }
            hooks:
              storage:
                url: https://api.example.com/
                masterKey: mk
            """.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try ServerConfig.load(path: path).hookStorage == RemoteStorage(url: URL(string: "https://api.example.com/")!, appID: "the-app", masterKey: "mk"))
        #expect(ServerConfig().hookStorage == nil)
        try "hooks:\n  storage: { url: 'http://10.0.0.2:3000/lean', appId: other, masterKey: mk, timeoutMs: 2500 }\n".write(toFile: path, atomically: true, encoding: .utf8)
        var expected = RemoteStorage(url: URL(string: "http://10.0.0.2:3000/lean")!, appID: "other", masterKey: "mk")
        expected.timeout = .milliseconds(2500)
        #expect(try ServerConfig.load(path: path).hookStorage == expected)

        let refusals = [
            "{ masterKey: mk }": "hooks.storage.url must be the http(s) address of a LeanStorage server",
            "{ url: 'ftp://api.example.com', masterKey: mk }": "hooks.storage.url must be the http(s) address of a LeanStorage server",
            "{ url: 'https://api.example.com/1.1', masterKey: mk }": "hooks.storage.url is the server's address without /1.1",
            "{ url: 'https://api.example.com' }": "hooks.storage.masterKey is required",
            "{ url: 'https://api.example.com', masterKey: '' }": "hooks.storage.masterKey is required",
            "{ url: 'https://api.example.com', masterKey: mk, appId: '' }": "hooks.storage.appId: the app's id there",
            "{ url: 'https://api.example.com', masterKey: mk, timeoutMs: 0 }": "hooks.storage.timeoutMs must be positive",
        ]
        for (storage, message) in refusals {
            try "hooks:\n  storage: \(storage)\n".write(toFile: path, atomically: true, encoding: .utf8)
            #expect(throws: ConfigError.self, "\(storage)") { try ServerConfig.load(path: path) }
            do {
                _ = try ServerConfig.load(path: path)
            } catch let error as ConfigError {
                #expect(error.description.hasPrefix(message), "\(storage): \(error)")
            }
        }
    }
}

/// Two conversations standing in for the IM store: those with the `where`'s objectId, else both; records the `where`s asked.
private final class FixedConversations: IMClass {
    private let wheres = Mutex<[JSONValue]>([])
    var asked: [JSONValue] { wheres.withLock { $0 } }
    let name = "_Conversation"
    static let all: [JSONValue] = [
        ["objectId": "c1", "name": "first", "m": ["alice", "bob"]],
        ["objectId": "c2", "name": "second", "m": ["alice"]],
    ]

    func objects(where whereDocument: JSONValue, order: String?, skip: Int, limit: Int) async throws -> [JSONValue] {
        wheres.withLock { $0.append(whereDocument) }
        let matching = whereDocument["objectId"].map { id in Self.all.filter { $0["objectId"] == id } } ?? Self.all
        return Array(matching.dropFirst(skip).prefix(limit))
    }

    /// One conversation a page.
    func page(after objectID: String?, limit: Int) async throws -> IMClassPage {
        let past = Self.all.filter { ($0["objectId"]?.stringValue ?? "") > objectID ?? "" }
        return IMClassPage(objects: Array(past.prefix(1)), next: past.count > 1 ? past.first?["objectId"]?.stringValue : nil)
    }
}
