import Foundation
import SwitchboardWire
import Testing

/// A system conversation's message to chosen clients (`to_clients`): only they receive
/// it, see it in history and count it unread; changes to it reach only them.
@Suite struct ChosenRecipientsTests {
    @Test func onlyTheChosenReceiveAndSeeIt() async throws {
        let server = try await TestServer.start()
        let (_, created) = try await server.rest("POST", "/1.2/rtm/service-conversations", body: ["name": "news"])
        let cid = try #require(created["objectId"] as? String)
        for client in ["bob", "carol", "dave"] {
            _ = try await server.rest("POST", "/1.2/rtm/service-conversations/\(cid)/subscribers", body: ["client_id": client])
        }
        let bob = try await server.login("bob")
        let carol = try await server.login("carol")

        let (status, sent) = try await server.rest(
            "POST", "/1.2/rtm/service-conversations/\(cid)/messages", body: ["from_client": "newsroom", "to_clients": ["bob", "dave"], "message": "yours"]
        )
        #expect(status == 200)
        let id = try #require(sent["msg-id"] as? String)
        let timestamp = try #require(sent["timestamp"] as? Int)
        _ = try await server.rest("POST", "/1.2/rtm/service-conversations/\(cid)/broadcasts", body: ["from_client": "newsroom", "message": "everyone's"])
        #expect(try await bob.nextMessage().msg == "yours")
        #expect(try await carol.nextMessage().msg == "everyone's")

        // History: over the socket and as the app's server reads a subscriber's.
        func logs(_ client: TestClient) async throws -> [String] {
            try await client.request(.logs(cid: cid)).logsMessage.logs.map(\.data)
        }
        #expect(try await logs(bob) == ["yours", "everyone's"])
        #expect(try await logs(carol) == ["everyone's"])
        func restHistory(_ client: String) async throws -> [String] {
            try await server.restArray("/1.2/rtm/service-conversations/\(cid)/subscribers/\(client)/messages").2.compactMap { $0["data"] as? String }
        }
        #expect(try await restHistory("carol") == ["everyone's"])
        #expect(try await restHistory("dave") == ["everyone's", "yours"])
        #expect(try await server.rest("GET", "/1.2/rtm/clients/carol/unread-count?conv_id=\(cid)").1["count"] as? Int == 1)
        #expect(try await server.rest("GET", "/1.2/rtm/clients/bob/unread-count?conv_id=\(cid)").1["count"] as? Int == 2)

        // Dave, offline, gets it at login; a recall reaches only those it went to.
        let dave = try await server.login("dave")
        #expect(try await dave.nextMessage().msg == "yours")
        let recall: [String: Any] = ["from_client": "newsroom", "timestamp": timestamp, "to_clients": ["bob", "dave"]]
        #expect(try await server.rest("PUT", "/1.2/rtm/service-conversations/\(cid)/messages/\(id)/recall", body: recall).0 == 200)
        #expect(try await bob.next { $0.cmd == .patch }.patchMessage.patches.first?.mid == id)
        // The REST call answered once the recall's notices were queued.
        try await carol.awaitHandled()
        #expect(carol.received { $0.cmd == .patch }.isEmpty)

        // Deleted for Bob, Dave keeps it.
        let path = "/1.2/rtm/service-conversations/\(cid)/subscribers/bob/messages/\(id)?from_client=newsroom&timestamp=\(timestamp)"
        #expect(try await server.rest("DELETE", path).0 == 200)
        #expect(try await restHistory("bob") == ["everyone's"])
        #expect(try await restHistory("dave").count == 2)
        try await server.stop()
    }

    @Test func othersDoNotSeeItAsTheLastMessage() async throws {
        let server = try await TestServer.start()
        let (_, created) = try await server.rest("POST", "/1.2/rtm/service-conversations", body: ["name": "news"])
        let cid = try #require(created["objectId"] as? String)
        _ = try await server.rest("POST", "/1.2/rtm/service-conversations/\(cid)/subscribers", body: ["client_id": "carol"])
        _ = try await server.rest("POST", "/1.2/rtm/service-conversations/\(cid)/broadcasts", body: ["from_client": "newsroom", "message": "hello"])
        let (status, _) = try await server.rest(
            "POST", "/1.2/rtm/service-conversations/\(cid)/messages", body: ["from_client": "newsroom", "to_clients": ["bob"], "message": "secret"]
        )
        #expect(status == 200)
        let carol = try await server.login("carol")
        let found = try #require(try await carol.queryConversations(where: #"{"objectId":"\#(cid)"}"#).first)
        #expect(found["msg"] as? String == "hello")
        try await server.stop()
    }

    @Test func badRecipientsAndOtherConversationsAreRefused() async throws {
        let server = try await TestServer.start()
        let (_, created) = try await server.rest("POST", "/1.2/rtm/service-conversations", body: ["name": "news"])
        let cid = try #require(created["objectId"] as? String)
        let path = "/1.2/rtm/service-conversations/\(cid)/messages"
        let tooMany = (0...20).map { "c\($0)" }
        #expect(try await server.rest("POST", path, body: ["from_client": "newsroom", "to_clients": tooMany, "message": "x"]).0 == 400)
        #expect(try await server.rest("POST", path, body: ["from_client": "newsroom", "to_clients": [], "message": "x"]).0 == 400)
        #expect(try await server.rest("POST", path, body: ["from_client": "newsroom", "to_clients": ["a:b"], "message": "x"]).0 == 400)
        #expect(try await server.rest("POST", path, body: ["from_client": "newsroom", "message": "x"]).0 == 400)
        let (_, group) = try await server.rest("POST", "/1.2/rtm/conversations", body: ["name": "group", "m": ["alice"]])
        let groupID = try #require(group["objectId"] as? String)
        let (status, body) = try await server.rest(
            "POST", "/1.2/rtm/service-conversations/\(groupID)/messages", body: ["from_client": "newsroom", "to_clients": ["alice"], "message": "x"]
        )
        #expect(status == 404 && body["code"] as? Int == 4303)
        try await server.stop()
    }
}
