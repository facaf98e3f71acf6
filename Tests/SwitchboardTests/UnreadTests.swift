import SwitchboardWire
import Testing

/// `unread` notifications at login and after `read`. On the core alone: a login's catch-up and
/// notices are sent while the login is handled.
@Suite struct UnreadTests {
    @Test func loginTellsCountsLastMessageAndMentions() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let quiet = try await alice.startConversation(members: ["bob"])
        let busy = try await alice.startConversation(members: ["bob", "carol"])
        try await alice.sendText("one", cid: busy)
        var mention = GenericCommand.text("@bob two", cid: busy)
        mention.directMessage.mentionPids = ["bob"]
        _ = try await alice.request(mention)
        let last = try await alice.sendText("three", cid: busy)
        try await alice.sendText("hello", cid: quiet)

        let bob = try await server.login("bob", missedMessages: .unreadCounts)
        let unread = try await bob.next { $0.cmd == .unread }.unreadMessage
        #expect(unread.notifTime > 0)
        let byConversation = Dictionary(uniqueKeysWithValues: unread.convs.map { ($0.cid, $0) })
        let busyTuple = try #require(byConversation[busy])
        #expect(busyTuple.unread == 3 && busyTuple.mentioned)
        #expect(busyTuple.mid == last.uid && busyTuple.data == "three" && busyTuple.from == "alice" && busyTuple.timestamp == last.t)
        #expect(byConversation[quiet]?.unread == 1 && byConversation[quiet]?.mentioned == false)
        // carol was not mentioned.
        let carol = try await server.login("carol", missedMessages: .unreadCounts)
        #expect(try await carol.next { $0.cmd == .unread }.unreadMessage.convs.first?.mentioned == false)
        await server.stop()
    }

    /// The subprotocol decides, not `configBitmap`: on `lc.protobuf2.3` missed messages come
    /// as unread counts only, not pushed too (each pushed one would count as new), whether
    /// or not the bitmap has "keep-notification" (the Android SDK's 0xAF has not,
    /// `SessionControlPacket.java` 43-50, 182-185); on `lc.protobuf2.1` they are pushed and no
    /// counts come, though the Swift SDK's 0xBB has the bit (`IMClient.swift` 154-170).
    @Test func theSubprotocolDecidesBetweenCountsAndPushedMessages() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob", "carol"])
        try await alice.sendText("while you were out", cid: cid)

        let bob = server.connect(missedMessages: .unreadCounts)
        var android = GenericCommand.open("bob", appID: server.config.appID)
        android.sessionMessage.configBitmap = 0xAF
        _ = try await bob.request(android)
        #expect(try await bob.next { $0.cmd == .unread }.unreadMessage.convs.first?.unread == 1)
        try await bob.awaitHandled()
        #expect(bob.received { $0.cmd == .direct }.isEmpty)

        let carol = server.connect(missedMessages: .pushed)
        var swift = GenericCommand.open("carol", appID: server.config.appID)
        swift.sessionMessage.configBitmap = 0xBB
        _ = try await carol.request(swift)
        #expect(try await carol.nextMessage().msg == "while you were out")
        try await carol.awaitHandled()
        #expect(carol.received { $0.cmd == .unread }.isEmpty)
        await server.stop()
    }

    @Test func readingClearsTheCountOnEveryDevice() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        let sent = try await alice.sendText("read me", cid: cid)
        let phone = try await server.login("bob", missedMessages: .unreadCounts)
        let laptop = try await server.login("bob", missedMessages: .unreadCounts)
        _ = try await phone.next { $0.cmd == .unread }
        _ = try await laptop.next { $0.cmd == .unread }

        phone.send(.read(cid: cid, upTo: sent.t))
        let cleared = try await laptop.next { $0.cmd == .unread }.unreadMessage.convs
        #expect(cleared.map(\.cid) == [cid] && cleared.first?.unread == 0)

        // A device on `lc.protobuf2.1`, which has no unread notices, gets none.
        let desktop = try await server.login("bob", missedMessages: .pushed)
        laptop.send(.read(cid: cid, upTo: sent.t))
        // The read's notices are sent while it is handled.
        try await laptop.awaitHandled()
        #expect(desktop.received { $0.cmd == .unread }.isEmpty)

        // The next login has nothing unread, even from the start of time.
        let tablet = server.connect(missedMessages: .unreadCounts)
        #expect(try await tablet.request(.open("bob", appID: server.config.appID)).op == .opened)
        try await tablet.awaitHandled()
        #expect(tablet.received { $0.cmd == .unread }.isEmpty)
        await server.stop()
    }

    @Test func onlyConversationsChangedSinceTheLastNotificationAreTold() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let old = try await alice.startConversation(members: ["bob"])
        try await alice.sendText("old news", cid: old)
        let bob = try await server.login("bob", missedMessages: .unreadCounts)
        let notifTime = try await bob.next { $0.cmd == .unread }.unreadMessage.notifTime
        bob.close()
        await bob.closed()

        let fresh = try await alice.startConversation(members: ["bob", "carol"])
        server.clock.advance(by: .milliseconds(5))
        try await alice.sendText("new", cid: fresh)
        let again = server.connect(missedMessages: .unreadCounts)
        var open = GenericCommand.open("bob", appID: server.config.appID)
        open.sessionMessage.lastUnreadNotifTime = notifTime
        #expect(try await again.request(open).op == .opened)
        let unread = try await again.next { $0.cmd == .unread }.unreadMessage
        #expect(unread.convs.map(\.cid) == [fresh])
        await server.stop()
    }

    /// On `lc.protobuf2.1` the newest twenty of each conversation are pushed (the rest are in
    /// its history), and no counts come.
    @Test func aPushedLoginBringsTheNewestTwentyPerConversation() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        var sent: [String] = []
        for index in 0..<25 { sent.append(try await alice.sendText("m\(index)", cid: cid).uid) }

        for _ in 0..<2 {
            // Not acknowledged: the second login brings the same twenty, not the older five.
            let bob = try await server.login("bob", missedMessages: .pushed)
            try await bob.awaitHandled()
            let pushed = bob.received { $0.cmd == .direct }
            #expect(pushed.map(\.directMessage.id) == Array(sent.suffix(20)))
            #expect(bob.received { $0.cmd == .unread }.isEmpty)
            bob.close()
            await bob.closed()
        }
        #expect(try await alice.request(.logs(cid: cid, limit: 100)).logsMessage.logs.count == 25)
        await server.stop()
    }
}
