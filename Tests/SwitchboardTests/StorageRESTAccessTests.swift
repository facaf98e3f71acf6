import Foundation
import Testing
@testable import SwitchboardServer

/// Who may call LeanStorage's REST API (the master key alone), what it refuses and how,
/// and `_Conversation` read through it.
@Suite struct StorageRESTAccessTests {
    /// LeanCloud's REST guide's own example ("更安全的鉴权方式"): keys and timestamp, and the
    /// signatures they give.
    static let guideAppKey = "UtOCzqb67d3sN12Kts4URwy8"
    static let guideMasterKey = "DyJegPlemooo4X1tg94gQkw1"
    static let guideTimestamp: Int64 = 1_453_014_943_466

    @Test func theGuidesMasterSignatureIsTheOneMadeAndTaken() {
        let signed = RequestSignature.sign(masterKey: Self.guideMasterKey, at: Self.guideTimestamp)
        #expect(signed == "e074720658078c898aa0d4b1b82bdf4b,1453014943466,master")
        #expect(RequestSignature.isValidMaster(signed, masterKey: Self.guideMasterKey))
        #expect(!RequestSignature.isValidMaster("d5bcbb897e19b2f6633c716dfdfaf9be,1453014943466", masterKey: Self.guideMasterKey))
        #expect(!RequestSignature.isValidMaster(signed, masterKey: Self.guideAppKey))
    }

    @Test func onlyTheMasterKeyOrItsSignatureIsLetIn() async throws {
        let server = try await TestServer.start { config in
            config.appKey = Self.guideAppKey
            config.masterKey = Self.guideMasterKey
        }
        let id = try await server.create("Secret", ["x": 1])
        let refusals: [(key: String??, sign: String?, why: String)] = [
            (nil, nil, "no key"),
            (.some(Self.guideAppKey), nil, "the app key"),
            (.some(Self.guideMasterKey), nil, "the master key without ,master"),
            (.some("wrong,master"), nil, "a wrong master key"),
            (nil, "d5bcbb897e19b2f6633c716dfdfaf9be,1453014943466", "the app key's signature (the guide's)"),
            (nil, "e074720658078c898aa0d4b1b82bdf4b,1453014943467,master", "a signature of another time"),
        ]
        for path in ["/1.1/classes/Secret/\(id)", "/1.1/classes/Secret", "/1.1/scan/classes/Secret"] {
            for refusal in refusals {
                let (status, data) = try await server.restData("GET", path, key: refusal.key, sign: refusal.sign)
                #expect(status == 401 && String(decoding: data, as: UTF8.self) == #"{"code":401,"error":"Unauthorized."}"#, "\(path): \(refusal.why)")
            }
        }
        for (method, path) in [("POST", "/1.1/classes/Secret"), ("PUT", "/1.1/classes/Secret/\(id)"), ("DELETE", "/1.1/classes/Secret/\(id)"), ("POST", "/1.1/batch")] {
            let (status, _) = try await server.rest(method, path, body: ["requests": []], key: .some(Self.guideAppKey))
            #expect(status == 401, "\(method) \(path)")
        }
        #expect(try await server.rest("GET", "/1.1/classes/Secret/\(id)").1["x"] as? Int == 1)

        // The guide's master signature, as the SDKs send it: X-LC-Id and X-LC-Sign alone.
        let (signed, object) = try await server.rest("GET", "/1.1/classes/Secret/\(id)", key: nil, sign: "e074720658078c898aa0d4b1b82bdf4b,1453014943466,master")
        #expect(signed == 200 && object["x"] as? Int == 1)
        let (wrongApp, _) = try await server.restExchange("GET", "/1.1/classes/Secret/\(id)", headers: ["X-LC-Id": "another-app"])
        #expect(wrongApp.statusCode == 401)
        try await server.stop()
    }

    @Test func badInputGetsLeanCloudsCodeInJSON() async throws {
        let server = try await TestServer.start()
        let refused: [(method: String, path: String, raw: String?, status: Int, code: Int)] = [
            ("POST", "/1.1/classes/Note", "{not json", 400, 107),
            ("POST", "/1.1/classes/Note", "[1,2]", 400, 107),
            ("POST", "/1.1/classes/1Note", "{}", 400, 103),
            ("POST", "/1.1/classes/Note", #"{"bad-key":1}"#, 400, 105),
            ("POST", "/1.1/classes/Note", #"{"n":{"__op":"Increment","amount":"x"}}"#, 400, 111),
            ("GET", "/1.1/classes/Note?where=%7Bnot", nil, 400, 107),
            ("GET", "/1.1/classes/Note?limit=many", nil, 400, 102),
            ("GET", "/1.1/classes/Note/not%20an%20id", nil, 400, 104),
            ("GET", "/1.1/scan/classes/Note?cursor=bogus", nil, 400, 102),
        ]
        for call in refused {
            let (status, answer) = try await server.rest(call.method, call.path, raw: call.raw)
            #expect(status == call.status && answer["code"] as? Int == call.code && answer["error"] is String, "\(call.method) \(call.path) \(call.raw ?? ""): \(answer)")
        }
        // Up to 4 MB: an object of 3 MB is taken, a body past 4 MB is refused.
        let large = String(repeating: "x", count: 3 * 1024 * 1024)
        #expect(try await server.rest("POST", "/1.1/classes/Note", raw: #"{"text":"\#(large)"}"#).0 == 201)
        let tooLarge = String(repeating: "x", count: 4 * 1024 * 1024)
        for path in ["/1.1/classes/Note", "/1.1/batch"] {
            let (status, answer) = try await server.rest("POST", path, raw: #"{"text":"\#(tooLarge)"}"#)
            #expect(status == 413 && answer["code"] as? Int == 413, "\(path)")
        }
        try await server.stop()
    }

    /// `_Conversation` reads as LeanStorage showed it, from the IM store; it changes only
    /// through the IM API.
    @Test func conversationsAreReadableAndReadOnly() async throws {
        let server = try await TestServer.start()
        let (_, conversation) = try await server.rest("POST", "/1.2/rtm/conversations", body: ["name": "team", "m": ["alice", "bob"], "c": "alice"])
        let cid = try #require(conversation["objectId"] as? String)
        _ = try await server.rest("POST", "/1.2/rtm/conversations", body: ["name": "other", "m": ["carol"]])

        let found = try await server.find("_Conversation", ["where": #"{"m":{"$in":["bob"]}}"#])
        #expect(found.count == 1 && found.first?["objectId"] as? String == cid && found.first?["name"] as? String == "team")
        #expect(found.first?["m"] as? [String] == ["alice", "bob"] && found.first?["c"] as? String == "alice" && found.first?["createdAt"] is String)
        let (status, one) = try await server.rest("GET", "/1.1/classes/_Conversation/\(cid)")
        #expect(status == 200 && one["name"] as? String == "team")
        let (_, counted) = try await server.rest("GET", TestServer.path("/1.1/classes/_Conversation", ["count": "1", "limit": "0"]))
        #expect(counted["count"] as? Int == 2)

        for (method, path) in [("POST", "/1.1/classes/_Conversation"), ("PUT", "/1.1/classes/_Conversation/\(cid)"), ("DELETE", "/1.1/classes/_Conversation/\(cid)")] {
            let (refused, answer) = try await server.rest(method, path, body: ["name": "renamed"])
            #expect(refused == 403 && answer["code"] as? Int == 119, "\(method) \(path)")
        }
        #expect(try await server.rest("GET", "/1.1/classes/_Conversation/\(cid)").1["name"] as? String == "team")
        try await server.stop()
    }

    /// The IM SDKs' `GET /1.1/classes/_ConversationMemberInfo` is still the IM API's (a
    /// client's session token); with the master key and no client it is LeanStorage's query.
    @Test func memberInfoStaysTheIMAPIs() async throws {
        let server = try await TestServer.start()
        let (status, answer) = try await server.rest("GET", "/1.1/classes/_ConversationMemberInfo?client_id=bob")
        #expect(status == 401 && answer["code"] as? Int == 4112)
        let (appKey, refused) = try await server.rest("GET", "/1.1/classes/_ConversationMemberInfo", key: server.config.appKey)
        #expect(appKey == 401 && refused["code"] as? Int == 4112)
        let (master, none) = try await server.rest("GET", "/1.1/classes/_ConversationMemberInfo")
        #expect(master == 200 && (none["results"] as? [Any])?.isEmpty == true)
        let (wrong, _) = try await server.restExchange("POST", "/1.1/classes/_ConversationMemberInfo", body: ["x": 1])
        #expect(wrong.statusCode == 405 && wrong.value(forHTTPHeaderField: "Allow") == "GET")
        // Its objects by id are no route of the IM API's: the app's data answers.
        #expect(try await server.rest("GET", "/1.1/classes/_ConversationMemberInfo/000000000000000000000000").0 == 200)
        try await server.stop()
    }
}
