import Foundation
import SwitchboardWire
import Testing

/// What a hook may return is held to what a client may send: content size, recipients that
/// are members, a push payload APNs and FCM take.
@Suite(.storeBlind) struct HookResultBoundsTests {
    @Test func contentAHookWritesIsHeldToTheClientsLimit() async throws {
        let server = try await TestServer.start(scripts: ["grow.js": """
            AV.Cloud.onIMMessageReceived((request) => {
              const text = request.params.content;
              if (text === 'huge') return { content: 'x'.repeat(8 << 20) };
              if (text === 'large') return { content: 'x'.repeat(6000) };
              return {};
            });
            """])
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        // Past the client's limit: refused, nothing stored or delivered.
        let large = try await alice.request(.text("large", cid: cid))
        #expect(large.ackMessage.code == 4402)
        // So large the result itself is refused: the hook failed, and fails open by default.
        try await alice.sendText("huge", cid: cid)
        #expect(try await bob.nextMessage().msg == "huge")
        let history = try await alice.request(.logs(cid: cid))
        #expect(history.logsMessage.logs.map(\.data) == ["huge"])
        try await server.stop()
    }

    @Test func recipientsOnlyNarrowToMembers() async throws {
        let server = try await TestServer.start(scripts: ["route.js": """
            AV.Cloud.onIMMessageReceived((request) => {
              if (request.params.content === 'many') return { toPeers: Array.from({ length: 100000 }, (_, i) => 'fake' + i) };
              return { toPeers: ['bob', 'mallory', 'bob'] };
            });
            """])
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let carol = try await server.login("carol")
        let mallory = try await server.login("mallory")
        let cid = try await alice.startConversation(members: ["bob", "carol"])
        try await alice.sendText("only bob", cid: cid)
        #expect(try await bob.nextMessage().msg == "only bob")
        try await alice.sendText("many", cid: cid)
        // The made-up list is refused whole: everyone gets it as if no hook had answered.
        #expect(try await bob.nextMessage().msg == "many")
        #expect(try await carol.nextMessage().msg == "many")
        try await mallory.awaitDeliveries(from: alice)
        #expect(mallory.received { $0.cmd == .direct }.isEmpty)
        try await server.stop()
    }

    @Test func anOversizedPushPayloadFallsBackToTheDefault() async throws {
        let push = RecordingPushGateway()
        let server = try await TestServer.start(push: push, scripts: ["push.js": """
            AV.Cloud.onIMReceiversOffline(() => ({ pushMessage: { alert: 'x'.repeat(5000) } }));
            """])
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        try await alice.sendText("hi", cid: cid)
        let notice = try await push.next()
        #expect(notice.recipients == ["bob"])
        #expect(!notice.payload.jsonString.contains(String(repeating: "x", count: 5000)))
        try await server.stop()
    }
}
