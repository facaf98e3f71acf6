import Crypto
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwitchboardCore
import SwitchboardWire
import Testing

/// LeanCloud's IM REST API for the app's server, over real HTTP, seen by clients over
/// real WebSockets.
@Suite struct ServerRESTAPITests {
    @Test func aMessageSentByRESTReachesMembersOnlineAndOfflineWithAPush() async throws {
        let push = RecordingPushGateway()
        let server = try await TestServer.start(push: push)
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob", "carol"])

        let (status, sent) = try await server.rest("POST", "/1.2/rtm/conversations/\(cid)/messages", body: [
            "from_client": "alice", "message": "from the backend", "mention_client_ids": ["carol"],
        ])
        #expect(status == 200)
        let id = try #require(sent["msg-id"] as? String)
        let received = try await bob.nextMessage()
        #expect(received.msg == "from the backend" && received.id == id && received.fromPeerID == "alice")
        let notice = try await push.next()
        #expect(notice.recipients == ["carol"])
        let carol = try await server.login("carol")
        #expect(try await carol.nextMessage().id == id)
        // The sender's own online devices get it too, unless no_sync.
        #expect(try await alice.nextMessage().id == id)
        let (_, unsynced) = try await server.rest("POST", "/1.2/rtm/conversations/\(cid)/messages", body: [
            "from_client": "alice", "message": "quietly", "no_sync": true,
        ])
        #expect(try await bob.nextMessage().id == unsynced["msg-id"] as? String)
        // The REST call answered once the message was delivered: what alice would get is here.
        try await alice.awaitHandled()
        #expect(alice.received { $0.cmd == .direct }.isEmpty)

        // As on LeanCloud, the REST API may send as anyone, member or not.
        #expect(try await server.rest("POST", "/1.2/rtm/conversations/\(cid)/messages", body: ["from_client": "system", "message": "hi"]).0 == 200)
        #expect(try await bob.nextMessage().fromPeerID == "system")
        try await server.stop()
    }

    /// The app's server is above the app's rules: a silenced member's message sent through
    /// the REST API goes out, and the hooks see that it came from the server.
    @Test func aSilencedMembersMessageSentByRESTGoesOutAndHooksSeeTheServer() async throws {
        let recorder = RecordingPlugin()
        let server = try await TestServer.start(plugins: [recorder])
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        #expect(try await server.rest("POST", "/1.2/rtm/conversations/\(cid)/permanent-silenceds", body: ["client_ids": ["alice"]]).0 == 200)
        #expect(try await alice.request(.text("hi", cid: cid)).ackMessage.code == 4563)

        let (status, sent) = try await server.rest("POST", "/1.2/rtm/conversations/\(cid)/messages", body: [
            "from_client": "alice", "message": "from the backend",
        ])
        #expect(status == 200)
        #expect(try await bob.nextMessage().id == sent["msg-id"] as? String)
        // Refused, alice's own send never reached the hook: this is the REST API's.
        let received = try await recorder.params(of: .messageReceived)
        #expect(received["fromPeer"] == "alice" && received["content"] == "from the backend" && received["sourceIP"] == "server")
        try await server.stop()
    }

    @Test func historyByRESTMatchesLogs() async throws {
        let server = try await TestServer.start()
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        for text in ["one", "two", "three"] { _ = try await alice.sendText(text, cid: cid) }
        let logs = try await alice.request(.logs(cid: cid)).logsMessage.logs

        let (status, _, listed) = try await server.restArray("/1.2/rtm/conversations/\(cid)/messages")
        #expect(status == 200)
        // The same messages as `logs`, newest first as LeanCloud's REST API lists them.
        #expect(listed.map { $0["msg-id"] as? String } == logs.map(\.msgID).reversed())
        #expect(listed.map { $0["data"] as? String } == ["three", "two", "one"])
        #expect(listed.first?["conv-id"] as? String == cid && listed.first?["is-conv"] as? Bool == true)

        let (_, _, oldestFirst) = try await server.restArray("/1.2/rtm/conversations/\(cid)/messages?reversed=true&limit=2")
        #expect(oldestFirst.map { $0["data"] as? String } == ["one", "two"])
        let last = try #require(oldestFirst.last)
        let after = "/1.2/rtm/conversations/\(cid)/messages?reversed=true&timestamp=\(last["timestamp"] as? Int ?? 0)&msgid=\(last["msg-id"] as? String ?? "")"
        #expect(try await server.restArray(after).2.map { $0["data"] as? String } == ["three"])
        try await server.stop()
    }

    @Test func aBroadcastReachesTheSubscribersOfASystemConversation() async throws {
        let server = try await TestServer.start()
        let bob = try await server.login("bob")
        let carol = try await server.login("carol")
        let (created, conversation) = try await server.rest("POST", "/1.2/rtm/service-conversations", body: ["name": "news"])
        #expect(created == 200)
        let cid = try #require(conversation["objectId"] as? String)
        #expect(try await server.rest("POST", "/1.2/rtm/service-conversations/\(cid)/subscribers", body: ["client_id": "bob"]).0 == 200)

        #expect(try await server.rest("POST", "/1.2/rtm/service-conversations/\(cid)/broadcasts", body: ["from_client": "newsroom", "message": "extra!"]).0 == 200)
        let received = try await bob.nextMessage()
        #expect(received.cid == cid && received.msg == "extra!")
        try await carol.awaitHandled()
        #expect(carol.received { $0.cmd == .direct }.isEmpty)
        let found = try #require(try await bob.queryConversations(where: #"{"objectId":"\#(cid)"}"#).first)
        #expect(found["sys"] as? Bool == true && found["name"] as? String == "news")

        #expect(try await server.rest("DELETE", "/1.2/rtm/service-conversations/\(cid)/subscribers/bob").0 == 200)
        _ = try await server.rest("POST", "/1.2/rtm/service-conversations/\(cid)/broadcasts", body: ["from_client": "newsroom", "message": "again"])
        try await bob.awaitHandled()
        #expect(bob.received { $0.cmd == .direct }.isEmpty)
        try await server.stop()
    }

    @Test func aKickedClientHearsItAndItsSessionEnds() async throws {
        let recorder = RecordingPlugin()
        let server = try await TestServer.start(plugins: [recorder])
        let bob = try await server.login("bob")
        #expect(try await server.rest("POST", "/1.2/rtm/clients/bob/kick", body: ["reason": "spam"]).0 == 200)
        let closed = try await bob.next { $0.cmd == .session && $0.op == .closed }
        #expect(closed.sessionMessage.code == 4115 && closed.sessionMessage.reason == "spam")
        #expect(try await recorder.params(of: .clientOffline)["closeCode"] == .int(4))
        #expect(try await bob.request(.startConversation(members: ["alice"])).errorMessage.code == 4105)
        try await server.stop()
    }

    @Test func conversationsAreListedByKindWithTheirMembers() async throws {
        let server = try await TestServer.start()
        let alice = try await server.login("alice")
        let group = try await alice.startConversation(members: ["bob"], name: "group")
        let room = try await alice.request(.startConversation(members: [], name: "room", transient: true)).convMessage.cid
        _ = try await server.rest("POST", "/1.2/rtm/service-conversations", body: ["name": "news"])

        func names(_ path: String) async throws -> [String] {
            let (_, body) = try await server.rest("GET", path)
            return ((body["results"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }.sorted()
        }
        #expect(try await names("/1.2/rtm/conversations") == ["group"])
        #expect(try await names("/1.2/rtm/chatrooms") == ["room"])
        #expect(try await names("/1.2/rtm/service-conversations") == ["news"])
        #expect(try await names("/1.2/rtm/all-conversations") == ["group", "news", "room"])
        let filtered = "/1.2/rtm/all-conversations?where=" + #"{"name":{"$in":["room","news"]}}"#.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        #expect(try await names(filtered + "&order=name&limit=1") == ["news"])
        let bobs = "/1.2/rtm/all-conversations?where=" + #"{"m":"bob"}"#.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        #expect(try await names(bobs) == ["group"])
        let (found, one) = try await server.rest("GET", "/1.2/rtm/conversations/\(group)")
        #expect(found == 200 && one["name"] as? String == "group" && one["objectId"] as? String == group)
        #expect(try await server.rest("GET", "/1.2/rtm/chatrooms/nope").0 == 404)
        #expect(try await server.rest("GET", "/1.2/rtm/conversations?where=%7Bnot").0 == 400)

        let (_, members) = try await server.rest("GET", "/1.2/rtm/conversations/\(group)/members")
        #expect(Set(members["result"] as? [String] ?? []) == ["alice", "bob"])
        #expect(try await server.rest("GET", "/1.2/rtm/conversations/\(room)x/members").0 == 404)
        try await server.stop()
    }

    @Test func onlineStatusAndUnreadCounts() async throws {
        let server = try await TestServer.start()
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        for text in ["one", "two"] { _ = try await alice.sendText(text, cid: cid) }
        let (_, online) = try await server.rest("POST", "/1.2/rtm/clients/check-online", body: ["client_ids": ["alice", "bob"]])
        #expect(online["results"] as? [String] == ["alice"])
        // The app key is enough here, as on LeanCloud.
        let (status, unread) = try await server.rest("GET", "/1.2/rtm/clients/bob/unread-count", key: server.config.appKey)
        #expect(status == 200 && unread["count"] as? Int == 2)
        #expect(try await server.rest("GET", "/1.2/rtm/clients/bob/unread-count?conv_id=other").1["count"] as? Int == 0)
        // Alice is online; Bob was, earlier today.
        let bob = try await server.login("bob")
        bob.close()
        try await alice.waitUntilOffline("bob")
        let stats = try await server.rest("GET", "/1.2/rtm/stats").1["result"] as? [String: Any]
        #expect(stats?["online_user_count"] as? Int == 1 && stats?["user_count_today"] as? Int == 2)
        try await server.stop()
    }

    @Test func onlyTheMasterKeyOrItsSignatureIsLetIn() async throws {
        let server = try await TestServer.start()
        let path = "/1.2/rtm/clients/bob/kick"
        #expect(try await server.rest("POST", path, key: nil).0 == 401)
        let (status, body) = try await server.rest("POST", path, key: server.config.appKey)
        #expect(status == 401 && body["code"] as? Int == 401 && body["error"] as? String == "Unauthorized.")
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        #expect(try await server.rest("POST", path, key: nil, sign: TestServer.masterSignature(server.config.masterKey, at: now)).0 == 200)
        #expect(try await server.rest("POST", path, key: nil, sign: TestServer.masterSignature("wrong", at: now)).0 == 401)
        try await server.stop()
    }

    @Test func badInputIsRefusedWithLeanCloudsCodesAndNothingIsSent() async throws {
        let server = try await TestServer.start()
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        let path = "/1.2/rtm/conversations/\(cid)/messages"
        let (unknown, why) = try await server.rest("POST", path, body: ["from_client": "alice", "message": "x", "mesage_typo": 1])
        #expect(unknown == 400 && why["code"] as? Int == 107 && (why["error"] as? String)?.contains("mesage_typo") == true)
        #expect(try await server.rest("POST", path, raw: "{not json").0 == 400)
        #expect(try await server.rest("POST", path, body: ["message": "no sender"]).0 == 400)
        #expect(try await server.rest("POST", path, body: ["from_client": "alice", "message": "x", "priority": "urgent"]).0 == 400)
        #expect(try await server.rest("POST", path, raw: "{\"from_client\":\"alice\",\"message\":\"" + String(repeating: "x", count: 70_000) + "\"}").0 == 413)
        #expect(try await server.rest("POST", "/1.2/rtm/conversations/nope/messages", body: ["from_client": "alice", "message": "x"]).0 == 400)
        #expect(try await server.rest("GET", "/1.2/rtm/conversations/nope/messages").0 == 404)
        try await bob.awaitHandled()
        #expect(bob.received { $0.cmd == .direct }.isEmpty)
        try await server.stop()
    }
}
