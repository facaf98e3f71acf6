import Foundation
import SwitchboardJSON
import SwitchboardWire
import Testing

/// App-wide broadcasts through the REST API (`/1.2/rtm/broadcasts`), received over real
/// WebSockets by clients online then and by devices logging in later.
@Suite struct BroadcastTests {
    @Test func aBroadcastReachesEveryClientOnceOnlineOrAtItsNextLogin() async throws {
        let server = try await TestServer.start()
        let cid = try #require(try await server.rest("POST", "/1.2/rtm/service-conversations", body: ["name": "news"]).1["objectId"] as? String)
        var bob = try await server.login("bob")
        let early = try await server.login("carol")
        early.close()
        try await bob.waitUntilOffline("carol")

        let (status, sent) = try await server.rest("POST", "/1.2/rtm/broadcasts", body: [
            "from_client": "newsroom", "conv_id": cid, "message": "maintenance at 2:00",
        ])
        #expect(status == 200)
        let id = try #require(sent["msg-id"] as? String)
        let live = try await bob.nextMessage()
        #expect(live.id == id && live.cid == cid && live.msg == "maintenance at 2:00")
        // Carol was offline, Dave has never logged in: both get it when they do.
        #expect(try await server.login("carol").nextMessage().id == id)
        #expect(try await server.login("dave").nextMessage().id == id)
        // Bob had it live, and spoke since: his next login does not bring it again. (A device
        // silent since may have lost it with its network, and gets it again, as notices.)
        _ = try await bob.request(.query(where: "{}"))
        bob.close()
        let carol = try await server.login("carol")
        try await carol.waitUntilOffline("bob")
        bob = try await server.login("bob")
        // A login's catch-up is sent while the login is handled.
        try await bob.awaitHandled()
        #expect(bob.received { $0.cmd == .direct }.isEmpty)

        let (_, _, listed) = try await server.restArray("/1.2/rtm/broadcasts?conv_id=\(cid)")
        #expect(listed.map { $0["msg-id"] as? String } == [id])
        #expect(try await server.rest("DELETE", "/1.2/rtm/broadcasts/\(id)").0 == 200)
        let erin = try await server.login("erin")
        try await erin.awaitHandled()
        #expect(erin.received { $0.cmd == .direct }.isEmpty)
        #expect(try await server.rest("DELETE", "/1.2/rtm/broadcasts/\(id)").0 == 404)
        // It stays in the conversation's history.
        #expect(try await server.restArray("/1.2/rtm/conversations/\(cid)/messages").2.map { $0["msg-id"] as? String } == [id])
        try await server.stop()
    }

    @Test func aBroadcastWithAPushReachesEveryRegisteredDevice() async throws {
        let push = RecordingPushGateway()
        let server = try await TestServer.start(push: push)
        let cid = try #require(try await server.rest("POST", "/1.2/rtm/service-conversations", body: ["name": "news"]).1["objectId"] as? String)
        for (client, token) in [("bob", "bobs-phone"), ("carol", "carols-phone")] {
            let connection = try await server.connect()
            var open = GenericCommand.open(client, appID: server.config.appID)
            open.sessionMessage.deviceToken = token
            #expect(try await connection.request(open).op == .opened)
        }
        #expect(try await server.rest("POST", "/1.2/rtm/broadcasts", body: [
            "from_client": "newsroom", "conv_id": cid, "message": "x", "push": ["alert": "news!", "_profile": "dev"],
        ]).0 == 200)
        let notice = try await push.next()
        #expect(notice.recipients == ["bob", "carol"] && notice.devices.mapValues { $0.map(\.token) } == ["bob": ["bobs-phone"], "carol": ["carols-phone"]])
        #expect(notice.payload == ["alert": "news!"] && notice.profile == "dev" && notice.conversationID == cid)
        try await server.stop()
    }

    @Test func transientAndBadBroadcasts() async throws {
        let server = try await TestServer.start()
        let cid = try #require(try await server.rest("POST", "/1.2/rtm/service-conversations", body: ["name": "news"]).1["objectId"] as? String)
        let bob = try await server.login("bob")
        #expect(try await server.rest("POST", "/1.2/rtm/broadcasts", body: [
            "from_client": "newsroom", "conv_id": cid, "message": "now or never", "transient": true,
        ]).0 == 200)
        #expect(try await bob.nextMessage().msg == "now or never")
        let carol = try await server.login("carol")
        try await carol.awaitHandled()
        #expect(carol.received { $0.cmd == .direct }.isEmpty)
        #expect(try await server.restArray("/1.2/rtm/broadcasts?conv_id=\(cid)").2.isEmpty)

        let past = Int64(Date().timeIntervalSince1970 * 1000) - 1000
        let body: [String: Any] = ["from_client": "newsroom", "conv_id": cid, "message": "x"]
        #expect(try await server.rest("POST", "/1.2/rtm/broadcasts", body: body.merging(["valid_till": past]) { $1 }).0 == 400)
        let group = try await bob.startConversation(members: ["carol"])
        #expect(try await server.rest("POST", "/1.2/rtm/broadcasts", body: body.merging(["conv_id": group]) { $1 }).0 == 404)
        try await server.stop()
    }
}
