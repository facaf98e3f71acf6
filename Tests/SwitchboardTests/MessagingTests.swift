import Foundation
import SwitchboardWire
import Testing

/// Sending, delivery to every device, catch-up at login and redelivery of what was not
/// acknowledged. On the core alone, time moved by its test clock and each redelivery round
/// run by the test; the server's own redelivery timer is tested on a whole server.
@Suite struct MessagingTests {
    @Test func sentMessageIsAckedAndDelivered() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        let ack = try await alice.sendText(#"{"_lctext":"hi bob","_lctype":-1}"#, cid: cid)
        #expect(ack.uid.count == 22)
        #expect(ack.t > 0)
        let received = try await bob.nextMessage()
        #expect(received.id == ack.uid)
        #expect(received.cid == cid)
        #expect(received.fromPeerID == "alice")
        #expect(received.timestamp == ack.t)
        #expect(received.msg == #"{"_lctext":"hi bob","_lctype":-1}"#)
        #expect(!received.offline)
        await server.stop()
    }

    @Test func timestampsIncreaseStrictly() async throws {
        // The test clock stands still: every message is sent in the same millisecond.
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        var last: Int64 = 0
        for index in 0..<20 {
            let ack = try await alice.sendText("m\(index)", cid: cid)
            #expect(ack.t > last)
            last = ack.t
        }
        await server.stop()
    }

    @Test func binaryMessagesTravelAsBytes() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        var command = GenericCommand.text("", cid: cid)
        command.directMessage.clearMsg()
        command.directMessage.binaryMsg = Data([0, 1, 2, 255])
        let reply = try await alice.request(command)
        #expect(!reply.ackMessage.hasCode)
        #expect(try await bob.nextMessage().binaryMsg == Data([0, 1, 2, 255]))
        await server.stop()
    }

    @Test func everyDeviceOfARecipientAndTheSendersOtherDevicesReceive() async throws {
        let server = try await CoreHarness.start()
        let alicePhone = try await server.login("alice")
        let aliceLaptop = try await server.login("alice")
        let bobPhone = try await server.login("bob")
        let bobLaptop = try await server.login("bob")
        let cid = try await alicePhone.startConversation(members: ["bob"])
        let ack = try await alicePhone.sendText("to all of you", cid: cid)
        #expect(try await bobPhone.nextMessage().id == ack.uid)
        #expect(try await bobLaptop.nextMessage().id == ack.uid)
        #expect(try await aliceLaptop.nextMessage().id == ack.uid)
        // Copies go out while the send is handled, before the phone's next command is.
        try await alicePhone.awaitHandled()
        #expect(alicePhone.receivedMessageIDs().isEmpty)
        await server.stop()
    }

    @Test func clientsSharingOneConnectionEachReceive() async throws {
        // LeanCloud's JS SDK multiplexes its IMClients over one socket, naming each in peerId.
        let server = try await CoreHarness.start()
        let socket = server.connect()
        _ = try await socket.request(.open("alice", appID: server.config.appID))
        _ = try await socket.request(.open("bob", appID: server.config.appID))
        var start = GenericCommand.startConversation(members: ["bob"])
        start.peerID = "alice"
        let cid = try await socket.request(start).convMessage.cid
        var send = GenericCommand.text("same socket", cid: cid)
        send.peerID = "alice"
        _ = try await socket.request(send)
        let delivered = try await socket.next { $0.cmd == .direct }
        #expect(delivered.peerID == "bob")
        #expect(delivered.directMessage.msg == "same socket")
        // Without peerId a socket with two sessions cannot tell who acts.
        let ambiguous = try await socket.request(.text("who?", cid: cid))
        #expect(ambiguous.ackMessage.code == 4105)
        await server.stop()
    }

    @Test func contentOver5KBIsRefusedWith4109() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        let reply = try await alice.request(.text(String(repeating: "x", count: 5121), cid: cid))
        #expect(reply.cmd == .ack)
        #expect(reply.ackMessage.code == 4109)
        #expect(reply.ackMessage.reason == "FRAME_TOO_LONG")
        try await alice.sendText(String(repeating: "x", count: 5120), cid: cid)
        await server.stop()
    }

    @Test func nonMembersAndUnknownConversationsGet4401() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let mallory = try await server.login("mallory")
        let cid = try await alice.startConversation(members: ["bob"])
        #expect(try await mallory.request(.text("let me in", cid: cid)).ackMessage.code == 4401)
        #expect(try await alice.request(.text("void", cid: "nope")).ackMessage.code == 4401)
        await server.stop()
    }

    @Test func offlineMembersReceiveWhatTheyMissedAtLogin() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        let first = try await alice.sendText("one", cid: cid)
        let second = try await alice.sendText("two", cid: cid)
        let bob = try await server.login("bob")
        let missed = [try await bob.nextMessage(), try await bob.nextMessage()]
        #expect(missed.map(\.id) == [first.uid, second.uid])
        #expect(missed.allSatisfy { $0.offline })
        await server.stop()
    }

    @Test func unacknowledgedMessagesComeAgainUntilAcked() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        let sent = try await alice.sendText("are you there", cid: cid)

        // bob receives but never acks: the next login brings it again.
        var bob = try await server.login("bob")
        #expect(try await bob.nextMessage().id == sent.uid)
        bob.close()
        await bob.closed()
        bob = try await server.login("bob")
        let again = try await bob.nextMessage()
        #expect(again.id == sent.uid)

        // Acked the way the JS SDK does (a time range): it stops.
        bob.send(.ack(cid: cid, from: again.timestamp, to: again.timestamp))
        try await bob.awaitHandled()
        bob.close()
        await bob.closed()
        bob = try await server.login("bob")
        // The catch-up is sent while the login is handled.
        try await bob.awaitHandled()
        #expect(bob.receivedMessageIDs().isEmpty)
        await server.stop()
    }

    @Test func onlineClientsGetUnackedMessagesAgainAfterTheInterval() async throws {
        let server = try await CoreHarness.start { $0.redeliverySeconds = 30 }
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        let sent = try await alice.sendText("ping", cid: cid)
        #expect(try await bob.nextMessage().id == sent.uid)
        // A live delivery counts from the message's timestamp, here the clock's reading: no
        // copy within the interval…
        await server.redeliver(after: .seconds(30))
        #expect(bob.receivedMessageIDs().isEmpty)
        // …once it has passed.
        await server.redeliver(after: .milliseconds(1))
        #expect(bob.receivedMessageIDs() == [sent.uid])

        var ack = GenericCommand()
        ack.cmd = .ack
        ack.ackMessage.mid = sent.uid
        bob.send(ack)
        try await bob.awaitHandled()
        await server.redeliver(after: .seconds(31))
        #expect(bob.receivedMessageIDs().isEmpty)
        await server.stop()
    }

    @Test func messagesDeliveredAtLoginAreNotRedeliveredRightAway() async throws {
        // Redelivery counts from the last delivery, not from when the message was sent.
        let server = try await CoreHarness.start { $0.redeliverySeconds = 30 }
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        let sent = try await alice.sendText("sent while bob was away", cid: cid)
        server.clock.advance(by: .seconds(31))
        let bob = try await server.login("bob")
        #expect(try await bob.nextMessage().id == sent.uid)
        // Its login, catch-up and all, is over before the clock moves.
        try await bob.awaitHandled()
        await server.redeliver(after: .seconds(30))
        #expect(bob.receivedMessageIDs().isEmpty)
        await server.redeliver(after: .milliseconds(1))
        #expect(bob.receivedMessageIDs() == [sent.uid])
        await server.stop()
    }

    @Test func redeliveryReachesEveryDeviceOfTheClient() async throws {
        let server = try await CoreHarness.start { $0.redeliverySeconds = 30 }
        let alice = try await server.login("alice")
        let phone = try await server.login("bob")
        let laptop = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        let sent = try await alice.sendText("twice", cid: cid)
        #expect(try await phone.nextMessage().id == sent.uid)
        #expect(try await laptop.nextMessage().id == sent.uid)
        await server.redeliver(after: .seconds(31))
        #expect(phone.receivedMessageIDs() == [sent.uid])
        #expect(laptop.receivedMessageIDs() == [sent.uid])
        await server.stop()
    }

    /// The rounds above, run by the server's own timer every `redeliverySeconds`.
    @Test func theServerRedeliversOnItsOwnAtTheInterval() async throws {
        let server = try await TestServer.start { $0.redeliverySeconds = 1 }
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        let sent = try await alice.sendText("ping", cid: cid)
        #expect(try await bob.nextMessage().id == sent.uid)
        #expect(try await bob.nextMessage(timeout: .seconds(4)).id == sent.uid)
        try await server.stop()
    }

    @Test func transientMessagesAreAckedDeliveredOnlineAndNotKept() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob", "carol"])
        let reply = try await alice.request(.text("typing…", cid: cid, transient: true))
        #expect(reply.cmd == .ack && !reply.ackMessage.hasCode)
        let received = try await bob.nextMessage()
        #expect(received.transient)
        let carol = try await server.login("carol")
        try await carol.awaitHandled()
        #expect(carol.receivedMessageIDs().isEmpty)
        let history = try await alice.request(.logs(cid: cid))
        #expect(history.logsMessage.logs.isEmpty)
        await server.stop()
    }

    @Test func aMessageSentAgainAfterALostAckIsStoredAndDeliveredOnce() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        var send = GenericCommand.text("only once", cid: cid)
        send.directMessage.dt = "client-side-id-1"
        let first = try await alice.request(send).ackMessage
        let again = try await alice.request(send).ackMessage
        #expect(!again.hasCode && again.uid == first.uid && again.t == first.t)
        #expect(try await bob.nextMessage().id == first.uid)
        // A copy would go out while alice's send is handled, before her next command is.
        try await alice.awaitHandled()
        #expect(bob.receivedMessageIDs().isEmpty)
        // Another message with its own token is a new message.
        send.directMessage.dt = "client-side-id-2"
        #expect(try await alice.request(send).ackMessage.uid != first.uid)
        #expect(try await alice.request(.logs(cid: cid)).logsMessage.logs.count == 2)
        await server.stop()
    }
}

private extension CoreHarness {
    /// Moves the clock on by `duration` and runs a round of redelivery, as the server's timer
    /// does every `redeliverySeconds`; what it sends is in the clients' inboxes on return.
    func redeliver(after duration: Duration) async {
        clock.advance(by: duration)
        await core.redeliverUnacknowledged()
    }
}

private extension CoreClient {
    /// The ids of the messages received so far, without waiting (see `received(where:)`).
    func receivedMessageIDs() -> [String] {
        received { $0.cmd == .direct }.map(\.directMessage.id)
    }
}
