import SwitchboardWire
import Testing

/// `patch/modify`: senders edit and recall their messages; members see `patch/modify`. On the
/// core alone, but for the hook that changes edits (a script, on a whole server).
@Suite struct EditAndRecallTests {
    @Test func anEditReachesMembersAndHistory() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        let sent = try await alice.sendText("helo", cid: cid)
        _ = try await bob.nextMessage()

        let reply = try await alice.request(.patch(cid: cid, mid: sent.uid, timestamp: sent.t, text: "hello", mentionPids: ["bob"]))
        #expect(reply.cmd == .patch && reply.op == .modified)
        #expect(reply.patchMessage.lastPatchTime > sent.t)
        let notice = try await bob.next { $0.cmd == .patch && $0.op == .modify }
        let patch = try #require(notice.patchMessage.patches.first)
        #expect(patch.mid == sent.uid && patch.cid == cid && patch.from == "alice" && patch.timestamp == sent.t)
        #expect(patch.data == "hello" && !patch.recall && patch.mentionPids == ["bob"])
        #expect(patch.patchTimestamp == reply.patchMessage.lastPatchTime)

        let history = try await bob.request(.logs(cid: cid)).logsMessage.logs
        #expect(history.map(\.data) == ["hello"])
        #expect(history.first?.patchTimestamp == patch.patchTimestamp)
        #expect(history.first?.mentionPids == ["bob"])
        await server.stop()
    }

    @Test func aRecalledMessageBecomesType127() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        let sent = try await alice.sendText(#"{"_lctype":-1,"_lctext":"oops"}"#, cid: cid)

        let reply = try await alice.request(.patch(cid: cid, mid: sent.uid, timestamp: sent.t, recall: true))
        #expect(reply.op == .modified)
        let patch = try #require(try await bob.next { $0.cmd == .patch }.patchMessage.patches.first)
        #expect(patch.recall)
        #expect(patch.data == #"{"_lctype":-127}"#)
        let recalled = try await bob.request(.logs(cid: cid, lctype: -127)).logsMessage.logs
        #expect(recalled.map(\.msgID) == [sent.uid])
        await server.stop()
    }

    @Test func onlyTheSenderMayChangeAMessageThatExists() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        let sent = try await alice.sendText("mine", cid: cid)
        let byBob = try await bob.request(.patch(cid: cid, mid: sent.uid, timestamp: sent.t, text: "yours"))
        #expect(byBob.errorMessage.code == 4403)
        let unknown = try await alice.request(.patch(cid: cid, mid: "no-such-message", timestamp: sent.t, text: "x"))
        #expect(unknown.errorMessage.code == 4404)
        let tooLong = try await alice.request(.patch(cid: cid, mid: sent.uid, timestamp: sent.t, text: String(repeating: "x", count: 6000)))
        #expect(tooLong.errorMessage.code == 4109)
        #expect(try await bob.request(.logs(cid: cid)).logsMessage.logs.map(\.data) == ["mine"])
        await server.stop()
    }

    @Test func editingAndRecallingCanBeTurnedOff() async throws {
        let server = try await CoreHarness.start { config in
            config.editingAllowed = false
            config.recallAllowed = false
        }
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        let sent = try await alice.sendText("fixed", cid: cid)
        #expect(try await alice.request(.patch(cid: cid, mid: sent.uid, timestamp: sent.t, text: "x")).errorMessage.code == 4406)
        #expect(try await alice.request(.patch(cid: cid, mid: sent.uid, timestamp: sent.t, recall: true)).errorMessage.code == 4407)
        await server.stop()
    }

    @Test func changesArePossibleOnlyWithinTheWindow() async throws {
        let server = try await CoreHarness.start { $0.editWindowSeconds = 3 }
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        let sent = try await alice.sendText("quick", cid: cid)
        #expect(try await alice.request(.patch(cid: cid, mid: sent.uid, timestamp: sent.t, text: "quicker")).op == .modified)
        server.clock.advance(by: .seconds(3))
        #expect(try await alice.request(.patch(cid: cid, mid: sent.uid, timestamp: sent.t, text: "quickest")).op == .modified)
        server.clock.advance(by: .milliseconds(1))
        #expect(try await alice.request(.patch(cid: cid, mid: sent.uid, timestamp: sent.t, recall: true)).errorMessage.code == 4407)
        await server.stop()
    }

    @Test func membersWhoWereOfflineGetThePatchesAtLogin() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        let since = server.clock.now()
        let sent = try await alice.sendText("first draft", cid: cid)
        _ = try await alice.request(.patch(cid: cid, mid: sent.uid, timestamp: sent.t, text: "final"))

        let bob = server.connect()
        var open = GenericCommand.open("bob", appID: server.config.appID)
        open.sessionMessage.lastPatchTime = since
        #expect(try await bob.request(open).op == .opened)
        let patch = try #require(try await bob.next { $0.cmd == .patch }.patchMessage.patches.first)
        #expect(patch.mid == sent.uid && patch.data == "final")

        // A client that has seen the patch gets it no more.
        let laptop = server.connect()
        open.sessionMessage.lastPatchTime = patch.patchTimestamp
        #expect(try await laptop.request(open).op == .opened)
        try await laptop.awaitHandled()
        #expect(laptop.received { $0.cmd == .patch }.isEmpty)
        await server.stop()
    }

    @Test func messageUpdateHooksRejectWith4405OrRewrite() async throws {
        let server = try await TestServer.start(scripts: ["edits.js": """
            AV.Cloud.onIMMessageUpdate((request) => {
              if (request.params.content.includes('forbidden')) return { drop: true, code: 17, detail: 'not that' };
              return { content: request.params.content.toUpperCase() };
            });
            """])
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        let sent = try await alice.sendText("draft", cid: cid)
        _ = try await bob.nextMessage()

        let rejected = try await alice.request(.patch(cid: cid, mid: sent.uid, timestamp: sent.t, text: "forbidden words"))
        #expect(rejected.errorMessage.code == 4405)
        #expect(rejected.errorMessage.appCode == 17)
        #expect(rejected.errorMessage.appMsg == "not that")

        #expect(try await alice.request(.patch(cid: cid, mid: sent.uid, timestamp: sent.t, text: "shout")).op == .modified)
        #expect(try await bob.next { $0.cmd == .patch }.patchMessage.patches.first?.data == "SHOUT")
        let toSender = try await alice.next { $0.cmd == .patch && !$0.hasI }
        #expect(toSender.patchMessage.patches.first?.patchCode == 1)
        #expect(try await bob.request(.logs(cid: cid)).logsMessage.logs.map(\.data) == ["SHOUT"])
        try await server.stop()
    }
}
