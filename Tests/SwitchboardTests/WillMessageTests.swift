import SwitchboardWire
import Testing

/// Will messages: sent to the conversation when the sender's connection drops, not on logout.
@Suite struct WillMessageTests {
    private static func will(_ text: String, cid: String) -> GenericCommand {
        var command = GenericCommand.text(text, cid: cid)
        command.directMessage.will = true
        return command
    }

    @Test func aDroppedConnectionSendsTheLastWill() async throws {
        let server = try await TestServer.start()
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        let first = try await alice.request(Self.will("first will", cid: cid))
        #expect(first.cmd == .ack && first.ackMessage.uid.count > 0 && !first.ackMessage.hasCode)
        _ = try await alice.request(Self.will("gone, sorry", cid: cid))
        // Not delivered, not kept, while alice is connected.
        #expect(try await bob.collect(for: .milliseconds(200)) { $0.cmd == .direct }.isEmpty)
        #expect(try await bob.request(.logs(cid: cid)).logsMessage.logs.isEmpty)

        alice.close()
        let will = try await bob.nextMessage()
        #expect(will.msg == "gone, sorry" && will.fromPeerID == "alice" && will.cid == cid)
        #expect(try await bob.collect(for: .milliseconds(200)) { $0.cmd == .direct }.isEmpty)
        #expect(try await bob.request(.logs(cid: cid)).logsMessage.logs.isEmpty)
        try await server.stop()
    }

    @Test func aCleanLogoutDiscardsTheWill() async throws {
        let server = try await TestServer.start()
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        _ = try await alice.request(Self.will("should not arrive", cid: cid))
        var close = GenericCommand()
        close.cmd = .session
        close.op = .close
        #expect(try await alice.request(close).op == .closed)
        alice.close()
        #expect(try await bob.collect(for: .milliseconds(300)) { $0.cmd == .direct }.isEmpty)
        try await server.stop()
    }

    @Test func aWillNeedsMembership() async throws {
        let server = try await TestServer.start()
        let alice = try await server.login("alice")
        let eve = try await server.login("eve")
        let cid = try await alice.startConversation(members: ["bob"])
        #expect(try await eve.request(Self.will("intrude", cid: cid)).ackMessage.code == 4401)
        try await server.stop()
    }
}
