import SwitchboardWire
import Testing

/// Will messages: sent to the conversation when the sender's connection drops, not on logout.
/// On the core alone; another node sending the will of one that died is in `ClusterTests`.
@Suite struct WillMessageTests {
    private static func will(_ text: String, cid: String) -> GenericCommand {
        var command = GenericCommand.text(text, cid: cid)
        command.directMessage.will = true
        return command
    }

    @Test func aDroppedConnectionSendsTheLastWill() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        let first = try await alice.request(Self.will("first will", cid: cid))
        #expect(first.cmd == .ack && first.ackMessage.uid.count > 0 && !first.ackMessage.hasCode)
        _ = try await alice.request(Self.will("gone, sorry", cid: cid))
        // Not delivered, not kept, while alice is connected (a message goes out after its ack,
        // while its command is still handled).
        try await alice.awaitHandled()
        #expect(bob.received { $0.cmd == .direct }.isEmpty)
        #expect(try await bob.request(.logs(cid: cid)).logsMessage.logs.isEmpty)

        alice.close()
        await alice.closed()
        // The last will only, once: it goes out while the connection's end is handled.
        let wills = bob.received { $0.cmd == .direct }.map(\.directMessage)
        #expect(wills.map(\.msg) == ["gone, sorry"])
        #expect(wills.first?.fromPeerID == "alice" && wills.first?.cid == cid)
        #expect(try await bob.request(.logs(cid: cid)).logsMessage.logs.isEmpty)
        await server.stop()
    }

    @Test func aCleanLogoutDiscardsTheWill() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        _ = try await alice.request(Self.will("should not arrive", cid: cid))
        #expect(try await alice.request(.closeSession()).op == .closed)
        alice.close()
        await alice.closed()
        #expect(bob.received { $0.cmd == .direct }.isEmpty)
        await server.stop()
    }

    @Test func aWillNeedsMembership() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let eve = try await server.login("eve")
        let cid = try await alice.startConversation(members: ["bob"])
        #expect(try await eve.request(Self.will("intrude", cid: cid)).ackMessage.code == 4401)
        await server.stop()
    }
}
