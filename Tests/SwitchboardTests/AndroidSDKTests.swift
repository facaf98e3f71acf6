import Foundation
import SwitchboardWire
import Testing

/// LeanCloud's Android SDK (java-unified-sdk, whose `realtime` module the Android build
/// wraps), frame by frame over a real WebSocket. Paths are in
/// `realtime/src/main/java/cn/leancloud/`.
@Suite struct AndroidSDKTests {
    private let sdk = PhoneSDK.android

    /// The SDK's default `onlyPushCount` works from counts: it logs in on `lc.protobuf2.3`
    /// (websocket/StandardWebSocketClient.java 38-45; im/LCIMOptions.java 29, 149-159) with
    /// 0xAF, which has no "reliable notification" bit, and gets each conversation's count and
    /// last message, not the messages (session/LCSession.java 433-467 reads the counts).
    @Test func aLoginWithMessagesWaitingGetsCountsNotPushes() async throws {
        let server = try await TestServer.start()
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        try await alice.sendText("one", cid: cid)
        let last = try await alice.sendText("two", cid: cid)

        let bob = try await sdk.login("bob", on: server)
        let unread = try await bob.nextPush(as: sdk, "unread") { $0.cmd == .unread }.unreadMessage
        #expect(unread.convs.map(\.cid) == [cid] && unread.convs.first?.unread == 2 && unread.convs.first?.mid == last.uid)
        #expect(unread.notifTime > 0)
        try await bob.awaitHandled()
        #expect(bob.received { $0.cmd == .direct }.isEmpty)
        try await server.stop()
    }

    /// An edit reaches an online member as `patch/modify`. Handed a `patch/modified` with no
    /// request of its own waiting, the SDK throws on its socket's thread and drops the
    /// socket (session/LCDefaultConnectionListener.java 148-156, 518-520); nothing the server
    /// sends it may be such a command, and the connection answers on afterwards.
    @Test func anEditReachesTheClientAsModifyAndTheSocketStaysOpen() async throws {
        let server = try await TestServer.start()
        let alice = try await server.login("alice")
        let bob = try await sdk.login("bob", on: server)
        let cid = try await alice.startConversation(members: ["bob"])
        let sent = try await alice.sendText("helo", cid: cid)
        _ = try await bob.nextPush(as: sdk, "direct") { $0.cmd == .direct }

        _ = try await alice.request(.patch(cid: cid, mid: sent.uid, timestamp: sent.t, text: "hello"))
        let patch = try await bob.nextPush(as: sdk, "patch/modify") { $0.cmd == .patch && $0.op == .modify }.patchMessage
        // The fields the SDK reads (LCDefaultConnectionListener.java 504-517, 594-606).
        #expect(patch.patches.map(\.mid) == [sent.uid] && patch.patches.first?.data == "hello" && patch.patches.first?.from == "alice")
        #expect(patch.patches.first.map { $0.patchTimestamp > 0 } == true)
        try await bob.awaitHandled()
        #expect(bob.received { PhoneSDK.androidDropsSocket(over: $0) }.isEmpty)
        #expect(!bob.isClosed)
        try await server.stop()
    }

    /// After each history page the SDK acknowledges by time alone, `ack{cid, tots}` with no
    /// `fromts` and no `i` (session/LCSession.java 502-514, command/ConversationAckPacket.java
    /// 52, 77-84): the sender of a message fetched that way gets its delivery receipt.
    @Test func theAckByTimeGivesTheReceipt() async throws {
        let server = try await TestServer.start()
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        let sent = try await alice.request(.text("fetch me", cid: cid, receipt: true)).ackMessage

        let bob = try await sdk.login("bob", on: server)
        _ = try await bob.nextPush(as: sdk, "unread") { $0.cmd == .unread }
        let page = try await bob.request(.logs(cid: cid, limit: 20)).logsMessage.logs
        #expect(page.map(\.msgID) == [sent.uid])
        var ack = GenericCommand()
        ack.cmd = .ack
        ack.peerID = "bob"
        ack.ackMessage.cid = cid
        ack.ackMessage.tots = page.map(\.timestamp).max() ?? 0
        bob.send(ack)
        let receipt = try await alice.next(timeout: .seconds(5), "rcp") { $0.cmd == .rcp }.rcpMessage
        #expect(receipt.id == sent.uid && receipt.cid == cid && receipt.from == "bob")

        // Another page's ack of the same message sends no second receipt.
        bob.send(ack)
        try await bob.awaitHandled()
        try await alice.awaitHandled()
        #expect(alice.received { $0.cmd == .rcp }.isEmpty)
        try await server.stop()
    }
}
