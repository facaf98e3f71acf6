import SwitchboardWire
import Testing

/// Membership and other permanent notices reach a device that was offline when they were
/// sent, at its next login (the SDK suite's "Reliable notifications": invited while paused).
/// On the core alone: a notice is replayed when it is no older than the moment the device
/// left, so the tests move the clock between what a device heard and when it left.
@Suite struct MissedNoticeTests {
    @Test func aDeviceOfflineWhenInvitedHearsItAtItsNextLogin() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        var bob = try await server.login("bob")
        let early = try await alice.startConversation(members: ["bob"])
        _ = try await bob.next { $0.cmd == .conv && $0.op == .joined && $0.convMessage.cid == early }
        // A second later it speaks and leaves: it was connected after the notice.
        server.clock.advance(by: .seconds(1))
        _ = try await bob.request(.query(where: "{}"))
        bob.close()
        await bob.closed()

        let cid = try await alice.startConversation(members: ["bob"])
        _ = try await alice.request(.update(cid: cid, attributes: #"{"name":"lunch"}"#))

        bob = server.connect()
        let opened = try await bob.request(.open("bob", appID: server.config.appID))
        #expect(opened.hasServerTs && opened.serverTs > 0)
        let joined = try await bob.next { $0.cmd == .conv && $0.op == .joined }
        #expect(joined.convMessage.cid == cid && joined.convMessage.initBy == "alice")
        #expect(joined.notificationType == 1 && joined.serverTs >= opened.serverTs - 60_000)
        let updated = try await bob.next { $0.cmd == .conv && $0.op == .updated }
        #expect(updated.convMessage.cid == cid)
        // What it heard live before it last spoke does not come again.
        try await bob.awaitHandled()
        #expect(bob.received { $0.cmd == .conv && $0.convMessage.cid == early }.isEmpty)
        await server.stop()
    }

    /// A device that goes silent (a network that dies without a word) is only noticed at
    /// the idle timeout: what was sent after it last spoke comes again at its next login.
    @Test func noticesSentAfterADeviceLastSpokeComeAgain() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        server.clock.advance(by: .seconds(1))
        let cid = try await alice.startConversation(members: ["bob"])
        _ = try await bob.next { $0.cmd == .conv && $0.op == .joined }
        // A minute later the gateway finds the socket dead; bob last spoke at its login.
        server.clock.advance(by: .seconds(60))
        bob.drop(silentFor: .seconds(61))
        await bob.closed()

        let again = server.connect()
        _ = try await again.request(.open("bob", appID: server.config.appID))
        let replayed = try await again.next { $0.cmd == .conv && $0.op == .joined }
        #expect(replayed.convMessage.cid == cid)
        await server.stop()
    }

    /// The JavaScript SDK names its device at the first login and reconnects with only its
    /// session token (`r` set): the token says which device it is, so the reconnect gets
    /// that device's notices and queued messages.
    @Test func aReconnectIsTheDeviceItsTokenWasIssuedTo() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let first = server.connect()
        var open = GenericCommand.open("bob", appID: server.config.appID)
        open.sessionMessage.deviceID = "browser-1"
        let token = try await first.request(open).sessionMessage.st
        first.close()
        await first.closed()

        let cid = try await alice.startConversation(members: ["bob"])
        _ = try await alice.sendText("while you were away", cid: cid)

        let reconnect = server.connect()
        var reopen = GenericCommand.open("bob", appID: server.config.appID)
        reopen.sessionMessage.r = true
        reopen.sessionMessage.st = token
        #expect(try await reconnect.request(reopen).op == .opened)
        #expect(try await reconnect.next { $0.cmd == .conv && $0.op == .joined }.convMessage.cid == cid)
        #expect(try await reconnect.next { $0.cmd == .direct }.directMessage.msg == "while you were away")
        await server.stop()
    }

    @Test func aLogoutCountsAsGoingOfflineAndANewDeviceGetsNoReplay() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let bob = try await server.login("bob", tag: "phone")
        let first = try await alice.startConversation(members: ["bob"])
        _ = try await bob.next { $0.cmd == .conv && $0.op == .joined }
        server.clock.advance(by: .seconds(1))
        #expect(try await bob.request(.closeSession()).op == .closed)
        let second = try await alice.startConversation(members: ["bob", "carol"])

        let phone = server.connect()
        _ = try await phone.request(.open("bob", appID: server.config.appID, tag: "phone"))
        try await phone.awaitHandled()
        let replayed = phone.received { $0.cmd == .conv && $0.op == .joined }
        #expect(replayed.map(\.convMessage.cid) == [second])
        #expect(!replayed.map(\.convMessage.cid).contains(first))

        let carol = server.connect()
        _ = try await carol.request(.open("carol", appID: server.config.appID))
        try await carol.awaitHandled()
        #expect(carol.received { $0.cmd == .conv }.isEmpty)
        await server.stop()
    }
}
