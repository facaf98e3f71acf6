import SwitchboardWire
import Testing

/// Delivery and read receipts, and `conv/max_read`. On the core alone: receipts are sent while
/// the ack or `read` that causes them is handled.
@Suite struct ReceiptTests {
    @Test func theSenderHearsWhenTheReceiverAcksAMessageThatAskedForIt() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        let wanted = try await alice.request(.text("tell me", cid: cid, receipt: true)).ackMessage
        let plain = try await alice.request(.text("never mind", cid: cid)).ackMessage
        _ = try await bob.nextMessage()
        _ = try await bob.nextMessage()
        bob.send(.ack(cid: cid, from: wanted.t, to: plain.t))

        let receipt = try await alice.next { $0.cmd == .rcp }.rcpMessage
        #expect(receipt.id == wanted.uid && receipt.cid == cid && receipt.from == "bob" && !receipt.read)
        #expect(receipt.t >= wanted.t)
        // One receipt: none for the message that did not ask, none for a repeated ack.
        bob.send(.ack(cid: cid, from: wanted.t, to: plain.t))
        try await bob.awaitHandled()
        #expect(alice.received { $0.cmd == .rcp }.isEmpty)
        await server.stop()
    }

    @Test func groupsGetNoPerMessageReceipts() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob", "carol"])
        let sent = try await alice.request(.text("all of you", cid: cid, receipt: true)).ackMessage
        _ = try await bob.nextMessage()
        bob.send(.ack(cid: cid, from: sent.t, to: sent.t))
        try await bob.awaitHandled()
        #expect(alice.received { $0.cmd == .rcp }.isEmpty)
        await server.stop()
    }

    @Test func readingSendsAReadReceiptAndMovesMaxRead() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        let sent = try await alice.sendText("read me", cid: cid)
        _ = try await bob.nextMessage()

        let before = try await alice.request(.maxRead(cid: cid)).convMessage
        #expect(before.maxReadTimestamp == 0)
        bob.send(.read(cid: cid, upTo: sent.t))
        let receipt = try await alice.next { $0.cmd == .rcp }.rcpMessage
        #expect(receipt.read && receipt.cid == cid && receipt.from == "bob" && receipt.t == sent.t)

        let after = try await alice.request(.maxRead(cid: cid)).convMessage
        #expect(after.maxReadTimestamp == sent.t)
        #expect(after.maxAckTimestamp == sent.t)
        // bob's own view: alice has read nothing.
        #expect(try await bob.request(.maxRead(cid: cid)).convMessage.maxReadTimestamp == 0)
        await server.stop()
    }

    @Test func groupMembersReadPositionsAreListedOnRequest() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let carol = try await server.login("carol")
        let cid = try await alice.startConversation(members: ["bob", "carol"])
        let first = try await alice.sendText("one", cid: cid)
        let second = try await alice.sendText("two", cid: cid)
        _ = try await bob.nextMessage()
        _ = try await carol.nextMessage()
        _ = try await carol.nextMessage()
        bob.send(.read(cid: cid, upTo: first.t))
        carol.send(.ack(cid: cid, from: first.t, to: second.t))

        try await bob.awaitHandled()
        try await carol.awaitHandled()
        let tuples = try await alice.request(.maxRead(cid: cid, allMembers: true)).convMessage.maxReadTuples
        let byMember = Dictionary(uniqueKeysWithValues: tuples.map { ($0.pid, $0) })
        #expect(byMember["bob"]?.maxReadTimestamp == first.t)
        #expect(byMember["carol"]?.maxAckTimestamp == second.t)
        #expect(byMember["carol"]?.maxReadTimestamp == 0)
        #expect(byMember["alice"] == nil)
        await server.stop()
    }

    @Test func maxReadNeedsMembership() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let eve = try await server.login("eve")
        let cid = try await alice.startConversation(members: ["bob"])
        #expect(try await eve.request(.maxRead(cid: cid)).errorMessage.code == 4317)
        #expect(try await eve.request(.maxRead(cid: "no-such-conversation")).errorMessage.code == 4303)
        await server.stop()
    }
}
