import Foundation
import SwitchboardWire
import Testing

/// App data as an app moved from LeanCloud uses it: its backend writes a class through
/// LeanStorage's REST API, a hook script reads it while messages pass over real WebSockets,
/// and saves what the backend later reads.
@Suite struct AppDataEndToEndTests {
    /// Drops a message whose sender the receiver blocked (a row of `Blacklist`), and files
    /// each message that passes in the receiver's `Inbox`.
    static let blacklistHook = """
        AV.Cloud.onIMMessageReceived(async (request) => {
          const blocked = await new AV.Query('Blacklist')
            .equalTo('blocked', request.params.fromPeer)
            .containedIn('owner', request.params.toPeers)
            .first();
          if (blocked) return { drop: true, code: 4501, detail: 'blocked by ' + blocked.get('owner') };
          const entry = new AV.Object('Inbox');
          await entry.save({ to: request.params.toPeers, from: request.params.fromPeer, text: request.params.content });
          return {};
        });
        """

    @Test func aBlacklistWrittenByTheBackendDropsTheBlockedSendersMessages() async throws {
        let server = try await TestServer.start(scripts: ["blacklist.js": Self.blacklistHook])
        let entry = try await server.create("Blacklist", ["owner": "bob", "blocked": "mallory"])
        let bob = try await server.login("bob")
        let alice = try await server.login("alice")
        let mallory = try await server.login("mallory")
        let fromAlice = try await alice.startConversation(members: ["bob"])
        let fromMallory = try await mallory.startConversation(members: ["bob"])

        let refused = try await mallory.request(.text("let me in", cid: fromMallory))
        #expect(refused.ackMessage.code == 4402)
        #expect(refused.ackMessage.appCode == 4501)
        try await alice.sendText("tea at five?", cid: fromAlice)
        #expect(try await bob.nextMessage().msg == "tea at five?")

        let inbox = try await server.find("Inbox", ["where": #"{"to":"bob"}"#])
        #expect(inbox.map { $0["text"] as? String } == ["tea at five?"])
        #expect(inbox.first?["from"] as? String == "alice")

        // Unblocked by the backend, mallory gets through.
        let (status, _) = try await server.rest("DELETE", "/1.1/classes/Blacklist/\(entry)")
        #expect(status == 200)
        try await mallory.sendText("sorry", cid: fromMallory)
        #expect(try await bob.nextMessage().msg == "sorry")
        try await server.stop()
    }
}

extension ClusterTests {
    /// Two nodes on one PostgreSQL database see the same app data: a blacklist written
    /// through one node's REST API stops a message sent to the other, whose hook saves what
    /// passes where the first node reads it.
    @Test func twoNodesShareAppData() async throws {
        let nodes = try await Nodes.start(scripts: ["blacklist.js": AppDataEndToEndTests.blacklistHook])
        defer { nodes.stop() }
        let (created, _) = try await Self.rest(nodes.a, "/1.1/classes/Blacklist", ["owner": "bob", "blocked": "mallory"])
        #expect(created == 201)
        let bob = try await TestClient.login("bob", port: nodes.a.port)
        let mallory = try await TestClient.login("mallory", port: nodes.b.port)
        let alice = try await TestClient.login("alice", port: nodes.b.port)
        let fromMallory = try await mallory.startConversation(members: ["bob"])
        let fromAlice = try await alice.startConversation(members: ["bob"])

        let refused = try await mallory.request(.text("let me in", cid: fromMallory))
        #expect(refused.ackMessage.appCode == 4501)
        try await alice.sendText("hello across", cid: fromAlice)
        #expect(try await bob.nextMessage().msg == "hello across")
        let (status, inbox) = try await Self.rest(nodes.a, "/1.1/classes/Inbox?where=%7B%22to%22%3A%22bob%22%7D", nil, method: "GET")
        #expect(status == 200)
        #expect((inbox["results"] as? [[String: Any]])?.map { $0["text"] as? String } == ["hello across"])
    }
}
