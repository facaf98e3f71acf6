import Foundation
import SwitchboardServer
import SwitchboardCore
import SwitchboardWire
import Testing

/// Conversations: starting them, members, attributes, queries, chat rooms, temporary ones. On
/// the core alone, but for the order in which one socket shared by an SDK's clients reads
/// replies and notices, and the server's sweep of expired conversations: on a whole server.
@Suite struct ConversationTests {
    @Test func startTellsTheOtherMembersTheyJoined() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let reply = try await alice.request(.startConversation(members: ["bob"], name: "lunch", attributes: ["color": "blue"]))
        #expect(reply.op == .started)
        #expect(!reply.convMessage.cdate.isEmpty)
        let joined = try await bob.next { $0.cmd == .conv && $0.op == .joined }
        #expect(joined.convMessage.cid == reply.convMessage.cid)
        #expect(joined.convMessage.initBy == "alice")
        #expect(joined.peerID == "bob")

        let found = try await bob.queryConversations(where: #"{"objectId":"\#(reply.convMessage.cid)"}"#)
        #expect(found.count == 1)
        #expect(found.first?["name"] as? String == "lunch")
        #expect(found.first?["color"] as? String == "blue")
        #expect(found.first?["c"] as? String == "alice")
        #expect(Set(found.first?["m"] as? [String] ?? []) == ["alice", "bob"])
        await server.stop()
    }

    @Test func uniqueReturnsTheExistingConversationForTheSameMembers() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let first = try await alice.startConversation(members: ["bob"], unique: true)
        let again = try await bob.startConversation(members: ["alice"], unique: true)
        #expect(first == again)
        let notUnique = try await alice.startConversation(members: ["bob"], unique: false)
        #expect(notUnique != first)
        let other = try await alice.startConversation(members: ["bob", "carol"], unique: true)
        #expect(other != first)
        await server.stop()
    }

    @Test func addAndRemoveMembersNotifyEveryone() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let carol = try await server.login("carol")
        let cid = try await alice.startConversation(members: ["bob"])
        _ = try await bob.next { $0.op == .joined }

        let added = try await alice.request(.conversation(.add, cid: cid, members: ["carol"]))
        #expect(added.op == .added)
        #expect(added.convMessage.allowedPids == ["carol"])
        let carolJoined = try await carol.next { $0.op == .joined }
        #expect(carolJoined.convMessage.cid == cid && carolJoined.convMessage.initBy == "alice")
        let bobSaw = try await bob.next { $0.op == .membersJoined }
        #expect(bobSaw.convMessage.m == ["carol"])

        let removed = try await alice.request(.conversation(.remove, cid: cid, members: ["bob"]))
        #expect(removed.op == .removed)
        #expect(removed.convMessage.allowedPids == ["bob"])
        let bobLeft = try await bob.next { $0.op == .left }
        #expect(bobLeft.convMessage.initBy == "alice")
        let carolSaw = try await carol.next { $0.op == .membersLeft }
        #expect(carolSaw.convMessage.m == ["bob"])

        // bob is out: he can no longer send there.
        let refused = try await bob.request(.text("hi", cid: cid))
        #expect(refused.ackMessage.code == 4401)
        await server.stop()
    }

    @Test func outsidersCannotAddOthersButCanJoin() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let mallory = try await server.login("mallory")
        let cid = try await alice.startConversation(members: ["bob"])
        let refused = try await mallory.request(.conversation(.add, cid: cid, members: ["eve"]))
        #expect(refused.errorMessage.code == 4317)
        let joined = try await mallory.request(.conversation(.add, cid: cid, members: ["mallory"]))
        #expect(joined.op == .added)
        let missing = try await mallory.request(.conversation(.add, cid: "000000000000000000000000", members: ["mallory"]))
        #expect(missing.errorMessage.code == 4303)
        await server.stop()
    }

    @Test func updateChangesNameAndAttributesAndTellsOthers() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"], name: "old")
        let reply = try await alice.request(.update(cid: cid, attributes: #"{"name":"new","attr.color":"red","level":3}"#))
        #expect(reply.op == .updated)
        #expect(!reply.convMessage.udate.isEmpty)
        let notice = try await bob.next { $0.cmd == .conv && $0.op == .updated }
        #expect(notice.convMessage.initBy == "alice")
        #expect(notice.convMessage.attr.data.contains("new"))

        let found = try #require(try await bob.queryConversations(where: #"{"objectId":"\#(cid)"}"#).first)
        #expect(found["name"] as? String == "new")
        #expect((found["attr"] as? [String: Any])?["color"] as? String == "red")
        #expect(found["level"] as? Int == 3)

        let reserved = try await alice.request(.update(cid: cid, attributes: #"{"m":["x"]}"#))
        #expect(reserved.errorMessage.code == 4306)
        await server.stop()
    }

    @Test func muteAndUnmuteShowInMutedMembers() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        #expect(try await alice.request(.conversation(.mute, cid: cid)).op == .updated)
        var found = try #require(try await alice.queryConversations(where: #"{"objectId":"\#(cid)"}"#).first)
        #expect(found["mu"] as? [String] == ["alice"])
        _ = try await alice.request(.conversation(.unmute, cid: cid))
        found = try #require(try await alice.queryConversations(where: #"{"objectId":"\#(cid)"}"#).first)
        #expect(found["mu"] as? [String] == [])
        await server.stop()
    }

    @Test func queryByMembersWithSortLimitAndSkip() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let one = try await alice.startConversation(members: ["bob"], name: "a")
        let two = try await alice.startConversation(members: ["bob", "carol"], name: "b")
        _ = try await alice.startConversation(members: ["carol"], name: "c")

        let withBob = try await alice.queryConversations(where: #"{"m":{"$all":["alice","bob"]}}"#, sort: "name")
        #expect(withBob.map { $0["objectId"] as? String } == [one, two])
        let exactlyTwo = try await alice.queryConversations(where: #"{"m":{"$size":2,"$all":["alice","bob"]}}"#)
        #expect(exactlyTwo.map { $0["objectId"] as? String } == [one])
        let byName = try await alice.queryConversations(where: #"{"name":{"$in":["b","c"]}}"#, sort: "-name")
        #expect(byName.map { $0["name"] as? String } == ["c", "b"])
        let page = try await alice.queryConversations(where: #"{"m":"alice"}"#, sort: "name", limit: 1, skip: 1)
        #expect(page.map { $0["name"] as? String } == ["b"])

        let bad = try await alice.request(.query(where: #"{"$where":"sleep(1)"}"#))
        #expect(bad.errorMessage.code == 4301)
        await server.stop()
    }

    @Test func queryShowsTheLastMessage() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        try await alice.sendText("first", cid: cid)
        let ack = try await alice.sendText("second", cid: cid)
        let found = try #require(try await alice.queryConversations(where: #"{"objectId":"\#(cid)"}"#).first)
        #expect(found["msg"] as? String == "second")
        #expect(found["msg_from"] as? String == "alice")
        #expect(found["msg_mid"] as? String == ack.uid)
        #expect((found["msg_timestamp"] as? NSNumber)?.int64Value == ack.t)
        await server.stop()
    }

    @Test func chatRoomsAreJoinedAndOnlyOnlineMembersReceive() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let room = try await alice.request(.startConversation(members: [], name: "lobby", transient: true))
        let cid = room.convMessage.cid
        #expect(try await bob.request(.conversation(.add, cid: cid, members: ["bob"])).op == .added)
        let rooms = try await bob.queryConversations(where: #"{"tr":true}"#)
        #expect(rooms.map { $0["objectId"] as? String } == [cid])

        try await alice.sendText("hello room", cid: cid)
        #expect(try await bob.nextMessage().msg == "hello room")
        // bob goes offline and misses what is said meanwhile: rooms keep nothing for him.
        bob.close()
        await bob.closed()
        try await alice.sendText("while you were out", cid: cid)
        // What was missed comes with the login: once it is handled, all of it is here.
        let back = try await server.login("bob")
        try await back.awaitHandled()
        #expect(back.received { $0.cmd == .direct }.isEmpty)
        await server.stop()
    }

    @Test func clientsJoiningARoomAtTheSameMomentAreAllKept() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let cid = try await alice.request(.startConversation(members: [], name: "lobby", transient: true)).convMessage.cid
        var guests: [CoreClient] = []
        for index in 0..<20 { guests.append(try await server.login("guest\(index)")) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, guest) in guests.enumerated() {
                group.addTask {
                    let reply = try await guest.request(.conversation(.add, cid: cid, members: ["guest\(index)"]))
                    #expect(reply.op == .added)
                }
            }
            try await group.waitForAll()
        }
        let count = try await alice.request(.conversation(.count, cid: cid))
        #expect(count.convMessage.count == 21)
        await server.stop()
    }

    /// The SDK suite's "patch update" listens for the receiver's update after the sender's
    /// edit resolves, both clients on one connection.
    @Test func theReplyToAnEditComesBeforeItsNoticeOnTheSameConnection() async throws {
        let server = try await TestServer.start()
        let (shared, cid) = try await aliceAndBobOnOneConnection(server)
        var send = GenericCommand.text("original", cid: cid)
        send.peerID = "alice"
        let ack = try await shared.request(send).ackMessage
        var edit = GenericCommand.patch(cid: cid, mid: ack.uid, timestamp: ack.t, text: "modified")
        edit.peerID = "alice"
        edit.i = 901
        shared.send(edit)
        let first = try await shared.next { $0.cmd == .patch }
        let second = try await shared.next { $0.cmd == .patch }
        #expect(first.hasI && first.i == 901)
        #expect(!second.hasI && second.peerID == "bob" && second.op == .modify)
        try await server.stop()
    }

    /// The SDKs keep one connection for an app's clients and one cache: the changer's reply
    /// comes before the notice its own connection gets for another client.
    @Test func theReplyToAChangeComesBeforeNoticesOnTheSameConnection() async throws {
        let server = try await TestServer.start()
        let (shared, cid) = try await aliceAndBobOnOneConnection(server)
        _ = try await shared.next { $0.cmd == .conv && $0.op == .joined && $0.peerID == "bob" }
        var update = GenericCommand.update(cid: cid, attributes: #"{"attr.topic":"lunch"}"#)
        update.peerID = "alice"
        update.i = 900
        let sent = ContinuousClock.now
        shared.send(update)
        let first = try await shared.next { $0.cmd == .conv && $0.op == .updated }
        let second = try await shared.next { $0.cmd == .conv && $0.op == .updated }
        #expect(first.hasI && first.i == 900)
        #expect(!second.hasI && second.peerID == "bob")
        // Not in the same read as the reply: the SDK acts on its reply first (the SDK
        // suite's getConversation cache test); a lower bound only, whatever the load.
        #expect(ContinuousClock.now - sent >= .milliseconds(50))
        try await server.stop()
    }

    /// Held notices wait for their command's reply, never for the next command's: the SDK
    /// suite's join-after-quit saw the quit's `left` after the join's reply and dropped the
    /// member it had just added.
    @Test func heldNoticesGoOutBeforeTheNextCommandsReply() async throws {
        let server = try await TestServer.start()
        let (shared, cid) = try await aliceAndBobOnOneConnection(server)
        _ = try await shared.next { $0.cmd == .conv && $0.op == .joined && $0.peerID == "bob" }
        var quit = GenericCommand.conversation(.remove, cid: cid, members: ["bob"])
        quit.peerID = "alice"
        quit.i = 910
        var join = GenericCommand.conversation(.add, cid: cid, members: ["bob"])
        join.peerID = "alice"
        join.i = 911
        shared.send(quit)
        shared.send(join)
        var seen: [String] = []
        while !seen.contains("joined") {
            let frame = try await shared.next { $0.cmd == .conv }
            seen.append(frame.hasI ? "reply \(frame.i)" : "\(frame.op)")
        }
        let joinReply = try #require(seen.firstIndex(of: "reply 911"))
        #expect(seen.firstIndex(of: "reply 910")! < seen.firstIndex(of: "left")!)
        #expect(seen.firstIndex(of: "left")! < joinReply, "\(seen)")
        #expect(seen.firstIndex(of: "membersLeft")! < joinReply, "\(seen)")
        try await server.stop()
    }

    /// The SDK's `createTemporaryConversation` asks for `unique`: the other member gets the
    /// live one both are in; once it expires, a new one.
    @Test func uniqueTemporaryConversationsAreSharedUntilTheyExpire() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let first = try await alice.request(.startConversation(members: ["bob"], unique: true, temporary: true, ttl: 600)).convMessage.cid
        let same = try await bob.request(.startConversation(members: ["alice"], unique: true, temporary: true))
        #expect(same.convMessage.cid == first)
        #expect(same.convMessage.tempConvTtl >= 1 && same.convMessage.tempConvTtl <= 600)
        let normal = try await bob.request(.startConversation(members: ["alice"], unique: true)).convMessage.cid
        #expect(normal != first && !normal.hasPrefix("_tmp:"))
        // Until its TTL the same one; past it, a new one.
        let short = try await alice.request(.startConversation(members: ["carol"], unique: true, temporary: true, ttl: 1)).convMessage.cid
        server.clock.advance(by: .milliseconds(999))
        #expect(try await alice.request(.startConversation(members: ["carol"], unique: true, temporary: true)).convMessage.cid == short)
        server.clock.advance(by: .milliseconds(1))
        let renewed = try await alice.request(.startConversation(members: ["carol"], unique: true, temporary: true)).convMessage.cid
        #expect(renewed != short && renewed.hasPrefix("_tmp:"))
        await server.stop()
    }

    @Test func temporaryConversationsExpire() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let reply = try await alice.request(.startConversation(members: ["bob"], temporary: true, ttl: 3))
        #expect(reply.convMessage.cid.hasPrefix("_tmp:"))
        #expect(reply.convMessage.tempConvTtl == 3)
        server.clock.advance(by: .milliseconds(2999))
        try await alice.sendText("quick", cid: reply.convMessage.cid)
        server.clock.advance(by: .milliseconds(1))
        // LeanCloud's TEMPORARY_CONVERSATION_EXPIRED, which the SDK reports as such.
        let late = try await alice.request(.text("too late", cid: reply.convMessage.cid))
        #expect(late.ackMessage.code == 4323 && !late.ackMessage.hasReason)
        #expect(try await alice.request(.text("never was", cid: "_tmp:0123456789abcdef01234567")).ackMessage.code == 4323)
        await server.stop()
    }

    /// The server's sweep, every `expirySweepSeconds` of real time, deletes what has expired
    /// by the core's clock.
    @Test func expiredTemporaryConversationsAreDeletedWithTheirMessages() async throws {
        let clock = TestClock()
        let server = try await TestServer.start(clock: clock) { $0.expirySweepSeconds = 1 }
        let alice = try await server.login("alice")
        let brief = try await alice.request(.startConversation(members: ["bob"], temporary: true, ttl: 4)).convMessage.cid
        let lasting = try await alice.request(.startConversation(members: ["bob"], temporary: true, ttl: 3600)).convMessage.cid
        try await alice.sendText("gone soon", cid: brief)
        try await alice.sendText("still here", cid: lasting)
        let stored = StoredRows(config: server.config)
        // Conversation, its two members, the message and its copy queued for bob (offline).
        #expect(try await stored.count(of: brief) == 5)
        clock.advance(by: .seconds(5))
        // The sweep leaves no trace but the rows it deletes: the test looks until they are
        // gone, for as long as ten sweeps would take.
        let deadline = ContinuousClock.now + .seconds(10)
        while try await stored.count(of: brief) > 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(try await stored.count(of: brief) == 0)
        #expect(try await stored.count(of: lasting) == 5)
        try await server.stop()
    }

    /// alice and bob logged in on one connection, as an SDK's clients share one, and a
    /// conversation alice started with bob.
    private func aliceAndBobOnOneConnection(_ server: TestServer) async throws -> (TestClient, String) {
        let shared = try await server.connect()
        for client in ["alice", "bob"] {
            #expect(try await shared.request(.open(client, appID: server.config.appID)).op == .opened)
        }
        var start = GenericCommand.startConversation(members: ["bob"])
        start.peerID = "alice"
        return (shared, try await shared.request(start).convMessage.cid)
    }
}

/// Reads a running server's database, to see what it keeps.
private struct StoredRows {
    let config: ServerConfig

    /// Rows that belong to a conversation, in every table that holds them.
    func count(of conversationID: String) async throws -> Int {
        try await TestDatabase.count(
            """
            SELECT (SELECT COUNT(*) FROM conversation WHERE id = $1)
                 + (SELECT COUNT(*) FROM conversation_member WHERE conversation_id = $1)
                 + (SELECT COUNT(*) FROM message WHERE conversation_id = $1)
                 + (SELECT COUNT(*) FROM device_inbox JOIN message ON message.seq = device_inbox.message_seq WHERE conversation_id = $1)
                 + (SELECT COUNT(*) FROM receipt_position WHERE conversation_id = $1)
            """,
            conversationID, in: config
        )
    }
}
