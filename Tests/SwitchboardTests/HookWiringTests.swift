import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwitchboardHooks
import SwitchboardJSON
import SwitchboardWire
import Testing

/// Hooks seen by real clients over WebSocket.
@Suite struct HookWiringTests {
    @Test func droppedMessageFailsWith4402AndTheHooksCode() async throws {
        let censor = ScriptedPlugin(name: "censor") { request in
            request.content.contains("spam") ? MessageResult(drop: true, code: 77, detail: "no spam here") : .passThrough
        }
        let server = try await TestServer.start(plugins: [censor])
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        let reply = try await alice.request(.text("buy spam", cid: cid))
        #expect(reply.cmd == .ack)
        #expect(reply.ackMessage.code == 4402)
        #expect(reply.ackMessage.reason == "MESSAGE_REJECTED_BY_APP")
        #expect(reply.ackMessage.appCode == 77)
        #expect(reply.ackMessage.appMsg == "no spam here")
        try await bob.awaitDeliveries(from: alice)
        #expect(bob.received { $0.cmd == .direct }.isEmpty)
        #expect(try await alice.request(.logs(cid: cid)).logsMessage.logs.isEmpty)
        try await alice.sendText("fine", cid: cid)
        #expect(try await bob.nextMessage().msg == "fine")
        try await server.stop()
    }

    @Test func rewrittenContentIsStoredAndDeliveredAndTheSenderGetsAPatch() async throws {
        let shouting = ScriptedPlugin(name: "no-shouting") { MessageResult(code: 5, detail: "calm down", content: $0.content.lowercased()) }
        let server = try await TestServer.start(plugins: [shouting])
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        let ack = try await alice.sendText("HELLO", cid: cid)
        #expect(try await bob.nextMessage().msg == "hello")
        let patch = try await alice.next { $0.cmd == .patch && $0.op == .modify }
        let item = try #require(patch.patchMessage.patches.first)
        #expect(item.mid == ack.uid)
        #expect(item.data == "hello")
        #expect(item.patchCode == 5)
        #expect(item.patchReason == "calm down")
        #expect(try await alice.request(.logs(cid: cid)).logsMessage.logs.map(\.data) == ["hello"])
        try await server.stop()
    }

    @Test func toPeersNarrowsTheRecipients() async throws {
        let quiet = ScriptedPlugin(name: "skip-carol") { MessageResult(toPeers: $0.toPeers.filter { $0 != "carol" } + ["mallory"]) }
        let server = try await TestServer.start(plugins: [quiet])
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let carol = try await server.login("carol")
        let mallory = try await server.login("mallory")
        let cid = try await alice.startConversation(members: ["bob", "carol"])
        try await alice.sendText("not for carol", cid: cid)
        #expect(try await bob.nextMessage().msg == "not for carol")
        try await carol.awaitDeliveries(from: alice)
        #expect(carol.received { $0.cmd == .direct }.isEmpty)
        // A hook cannot add someone who is not a member.
        try await mallory.awaitHandled()
        #expect(mallory.received { $0.cmd == .direct }.isEmpty)
        try await server.stop()
    }

    @Test func closedPolicyDropsWhenAHookTimesOut() async throws {
        let slow = ScriptedPlugin(name: "slow", budget: .milliseconds(50), failurePolicy: .closed) { _ in
            try await Task.sleep(for: .seconds(2))
            return .passThrough
        }
        let server = try await TestServer.start(plugins: [slow])
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        let reply = try await alice.request(.text("hello", cid: cid))
        #expect(reply.ackMessage.code == 4402)
        #expect(reply.ackMessage.appMsg == "hook slow timed out")
        try await server.stop()
    }

    @Test func conversationHooksRejectWith4305() async throws {
        struct Gatekeeper: SwitchboardPlugin {
            let name = "gatekeeper"
            func conversationStart(_ request: ConversationStartRequest) async throws -> ConversationResult {
                request.members.contains("banned") ? ConversationResult(reject: true, code: 9, detail: "banned member") : .passThrough
            }
            func conversationAdd(_ request: ConversationMembersRequest) async throws -> ConversationResult {
                request.members.contains("banned") ? ConversationResult(reject: true, code: 10, detail: "no") : .passThrough
            }
            func conversationUpdate(_ request: ConversationUpdateRequest) async throws -> ConversationResult {
                guard case .attributes(let attr) = request.change else { return .passThrough }
                // Rewrites names to a house style.
                if let name = attr["name"]?.stringValue { return ConversationResult(attr: .object(["name": .string("#" + name)])) }
                return .passThrough
            }
        }
        let server = try await TestServer.start(plugins: [Gatekeeper()])
        let alice = try await server.login("alice")
        let refused = try await alice.request(.startConversation(members: ["banned"]))
        #expect(refused.errorMessage.code == 4305)
        #expect(refused.errorMessage.appCode == 9)
        let cid = try await alice.startConversation(members: ["bob"])
        let add = try await alice.request(.conversation(.add, cid: cid, members: ["banned"]))
        #expect(add.errorMessage.code == 4305 && add.errorMessage.appCode == 10)
        _ = try await alice.request(.update(cid: cid, attributes: #"{"name":"general"}"#))
        let found = try await alice.request(.query(where: #"{"objectId":"\#(cid)"}"#))
        #expect(found.convMessage.results.data.contains(##""name":"#general""##))
        try await server.stop()
    }

    @Test func everyHookPointFiresWithItsDocumentedParameters() async throws {
        let recorder = RecordingPlugin()
        let server = try await TestServer.start(plugins: [recorder])
        let alice = try await server.login("alice", tag: "web")
        let online = try await recorder.params(of: .clientOnline)
        #expect(online == .object(["peerId": "alice", "sourceIP": "127.0.0.1", "tag": "web", "reconnect": .int(0)]))

        let cid = try await alice.startConversation(members: ["bob"])
        let start = try await recorder.params(of: .conversationStart)
        #expect(start["initBy"] == "alice")
        #expect(start["members"] == .array(["alice", "bob"]))
        #expect(start["attr"] == .object([:]))
        #expect(try await recorder.params(of: .conversationStarted) == .object(["convId": .string(cid)]))

        let ack = try await alice.sendText("hi", cid: cid)
        let received = try await recorder.params(of: .messageReceived)
        #expect(received == .object([
            "fromPeer": "alice", "convId": .string(cid), "toPeers": ["bob"], "transient": false, "bin": false,
            "content": "hi", "receipt": false, "timestamp": .int(ack.t), "system": false, "sourceIP": "127.0.0.1",
        ]))
        let sent = try await recorder.params(of: .messageSent)
        #expect(sent["msgId"] == .string(ack.uid))
        #expect(sent["offlinePeers"] == ["bob"])
        #expect(sent["onlinePeers"] == .array([]))
        let offline = try await recorder.params(of: .receiversOffline)
        #expect(offline["offlinePeers"] == ["bob"])
        #expect(offline["mentionOfflinePeers"] == .array([]))
        #expect(offline["mentionAll"] == false)

        _ = try await alice.request(.conversation(.add, cid: cid, members: ["carol"]))
        #expect(try await recorder.params(of: .conversationAdd) == .object(["initBy": "alice", "members": ["carol"], "convId": .string(cid)]))
        #expect(try await recorder.params(of: .conversationAdded) == .object(["initBy": "alice", "members": ["carol"], "convId": .string(cid)]))
        _ = try await alice.request(.conversation(.remove, cid: cid, members: ["carol"]))
        #expect(try await recorder.params(of: .conversationRemove)["members"] == ["carol"])
        #expect(try await recorder.params(of: .conversationRemoved)["members"] == ["carol"])
        _ = try await alice.request(.update(cid: cid, attributes: #"{"name":"x"}"#))
        #expect(try await recorder.params(of: .conversationUpdate) == .object(["initBy": "alice", "convId": .string(cid), "attr": ["name": "x"]]))

        alice.close()
        let gone = try await recorder.params(of: .clientOffline)
        #expect(gone["peerId"] == "alice")
        #expect(gone["closeCode"] == .int(2))
        #expect(gone["tag"] == "web")
        try await server.stop()
    }

    /// As on LeanCloud: `mentionOfflinePeers` names the members mentioned by name; an
    /// @all is `mentionAll` alone.
    @Test func mentionAllLeavesMentionOfflinePeersEmpty() async throws {
        let recorder = RecordingPlugin()
        let server = try await TestServer.start(plugins: [recorder])
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob", "carol"])
        var everyone = GenericCommand.text("@all lunch", cid: cid)
        everyone.directMessage.mentionAll = true
        everyone.directMessage.mentionPids = ["carol"]
        _ = try await alice.request(everyone)
        let offline = try await recorder.params(of: .receiversOffline)
        #expect(offline["mentionAll"] == true)
        #expect(offline["mentionOfflinePeers"] == ["carol"])
        try await server.stop()
    }

    @Test func clientOfflineSaysWhyTheSessionEnded() async throws {
        let recorder = RecordingPlugin()
        let server = try await TestServer.start(plugins: [recorder])
        _ = try await server.login("alice", tag: "phone")
        _ = try await server.login("alice", tag: "phone")
        #expect(try await recorder.params(of: .clientOffline)["closeCode"] == .int(3))
        try await server.stop()
    }

    @Test func receiversOfflineDecidesThePush() async throws {
        struct Pusher: SwitchboardPlugin {
            let name = "pusher"
            func receiversOffline(_ request: ReceiversOfflineRequest) async throws -> ReceiversOfflineResult {
                ReceiversOfflineResult(offlinePeers: request.offlinePeers.filter { $0 != "dave" }, pushMessage: .object(["alert": .string("new message")]))
            }
        }
        let push = RecordingPushGateway()
        let server = try await TestServer.start(plugins: [Pusher()], push: push)
        let alice = try await server.login("alice")
        _ = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob", "carol", "dave", "erin"])
        let erin = try await server.login("erin")
        _ = try await erin.request(.conversation(.mute, cid: cid))
        erin.close()
        try await erin.waitUntilClosed()
        let ack = try await alice.sendText("hello all", cid: cid)
        let notice = try await push.next()
        #expect(notice.messageID == ack.uid)
        // bob is online, dave was filtered by the hook, erin muted the conversation.
        #expect(notice.recipients == ["carol"])
        #expect(notice.payload == .object(["alert": .string("new message")]))
        try await server.stop()
    }

    @Test func aMutedConversationStillDeliversAndForcePushesToo() async throws {
        struct Forcing: SwitchboardPlugin {
            let name = "forcing"
            func receiversOffline(_ request: ReceiversOfflineRequest) async throws -> ReceiversOfflineResult {
                var result = ReceiversOfflineResult()
                result.force = request.content.contains("urgent")
                return result
            }
        }
        let push = RecordingPushGateway()
        let server = try await TestServer.start(plugins: [Forcing()], push: push)
        let alice = try await server.login("alice")
        var erin = try await server.login("erin")
        let cid = try await alice.startConversation(members: ["erin"])
        _ = try await erin.request(.conversation(.mute, cid: cid))
        let online = try await alice.sendText("still here", cid: cid)
        #expect(try await erin.nextMessage().id == online.uid)
        erin.send(.ack(cid: cid, from: online.t, to: online.t))
        erin.close()
        // Offline once the server has handled her ack and ended her session, not when her
        // socket closed: a message sent in between finds her online and is not pushed.
        try await alice.waitUntilOffline("erin")

        try await alice.sendText("fyi", cid: cid)
        let urgent = try await alice.sendText("urgent", cid: cid)
        let notice = try await push.next()
        #expect(notice.messageID == urgent.uid && notice.recipients == ["erin"])
        // Muted, but every message still arrives.
        erin = try await server.login("erin")
        // Waited for one by one: a loaded machine took more than 300 ms to deliver both.
        let missed = [try await erin.nextMessage().msg, try await erin.nextMessage().msg]
        #expect(missed == ["fyi", "urgent"])
        try await server.stop()
    }

    @Test func withoutHooksTheSendersPushDataIsThePayload() async throws {
        let push = RecordingPushGateway()
        let server = try await TestServer.start(push: push)
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        var send = GenericCommand.text("hi", cid: cid)
        send.directMessage.pushData = #"{"alert":"from alice"}"#
        _ = try await alice.request(send)
        let notice = try await push.next()
        #expect(notice.recipients == ["bob"])
        #expect(notice.payload == .object(["alert": .string("from alice")]))
        _ = try await alice.request(.text("quiet", cid: cid, transient: true))
        try await Task.sleep(for: .milliseconds(200))
        #expect(push.isEmpty)
        try await server.stop()
    }

    @Test func metricsAreServedInPrometheusFormat() async throws {
        let server = try await TestServer.start(plugins: [ScriptedPlugin(name: "counted") { _ in .passThrough }])
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        try await alice.sendText("one", cid: cid)
        let (data, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(server.port)/metrics")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#"switchboard_hook_calls_total{handler="counted",kind="plugin",point="_messageReceived"} 1"#))
        try await server.stop()
    }
}
