import Foundation
import SwitchboardWire
import Testing

/// The Swift and Objective-C SDKs, frame by frame over a real WebSocket: what the server
/// sends on its own reaches their IM clients only as they take it (`PhoneSDK.takesPush`:
/// no `i`, `service` 2), and their devices are told apart by the `deviceToken` they log in
/// with. Paths are in leancloud/swift-sdk (`Sources/`) and leancloud/objc-sdk (`AVOS/Sources/`).
@Suite struct AppleSDKTests {
    /// A message, a receipt, an edit, membership and role notices, then the unread count of
    /// a later login and a kick, each taken by the SDK's dispatch.
    @Test(arguments: PhoneSDK.apple)
    func whatTheServerSendsOnItsOwnReachesTheClient(_ sdk: PhoneSDK) async throws {
        let server = try await TestServer.start()
        let alice = try await sdk.login("alice", on: server)
        var bob = try await sdk.login("bob", on: server)

        // A unique conversation, as both SDKs create one by default (RTM/IMClient.swift
        // 692-729, Realtime/IM/Client/LCIMClient.m 1643-1698).
        let cid = try await alice.request(.startConversation(members: ["alice", "bob"], unique: true)).convMessage.cid
        _ = try await bob.nextPush(as: sdk, "conv/joined") { $0.cmd == .conv && $0.op == .joined && $0.convMessage.cid == cid }

        // A message wanting a receipt: the SDK needs cid, id, msg and timestamp
        // (RTM/IMClient.swift 1997-2049, Realtime/IM/Client/LCIMClient.m 1478-1529).
        let sent = try await alice.request(.text("hello", cid: cid, receipt: true)).ackMessage
        let message = try await bob.nextPush(as: sdk, "direct") { $0.cmd == .direct }.directMessage
        #expect(message.cid == cid && message.id == sent.uid && message.msg == "hello" && message.timestamp == sent.t)

        // Its ack, as the SDK sends it: cid and mid, no i (RTM/IMClient.swift 1970-1995,
        // LCIMClient.m 1496-1507); the sender's receipt names the message.
        var ack = GenericCommand()
        ack.cmd = .ack
        ack.ackMessage.cid = cid
        ack.ackMessage.mid = sent.uid
        bob.send(ack)
        let receipt = try await alice.nextPush(as: sdk, "rcp") { $0.cmd == .rcp }.rcpMessage
        #expect(receipt.id == sent.uid && receipt.cid == cid && receipt.t > 0)

        // An edit: `patch/modify`, with every field the Objective-C SDK requires
        // (Realtime/IM/Conversation/LCIMConversation.m 2953-2960; RTM/IMClient.swift 2515-2521).
        let edited = try await alice.request(.patch(cid: cid, mid: sent.uid, timestamp: sent.t, text: "hello again"))
        #expect(edited.cmd == .patch && edited.op == .modified)
        let patch = try await bob.nextPush(as: sdk, "patch/modify") { $0.cmd == .patch && $0.op == .modify }.patchMessage.patches
        #expect(patch.count == 1)
        #expect(patch.first.map { $0.cid == cid && $0.mid == sent.uid && $0.timestamp == sent.t && $0.from == "alice" && $0.data == "hello again" && $0.patchTimestamp > 0 } == true)

        // Membership and role notices (RTM/IMClient.swift 1903-1968, LCIMClient.m 1017-1175);
        // a role is exactly Owner, Manager or Member (RTM/IMConversation.swift 1889-1893).
        _ = try await alice.request(.conversation(.add, cid: cid, members: ["carol"]))
        let joined = try await bob.nextPush(as: sdk, "conv/members_joined") { $0.cmd == .conv && $0.op == .membersJoined }
        #expect(joined.convMessage.m == ["carol"] && joined.convMessage.initBy == "alice")
        _ = try await alice.request(.memberRole("bob", role: "Manager", cid: cid))
        let role = try await bob.nextPush(as: sdk, "conv/member_info_changed") { $0.cmd == .conv && $0.op == .memberInfoChanged }
        #expect(role.convMessage.info.pid == "bob" && role.convMessage.info.role == "Manager")

        // Offline, then back: the count of what is unread (bob read nothing) and the newest
        // message, not the messages (lc.protobuf2.3).
        bob.close()
        try await alice.waitUntilOffline("bob")
        let later = try await alice.request(.text("while you were away", cid: cid)).ackMessage
        bob = try await sdk.login("bob", on: server)
        let unread = try await bob.nextPush(as: sdk, "unread") { $0.cmd == .unread }.unreadMessage.convs
        #expect(unread.map(\.cid) == [cid] && unread.first?.unread == 2 && unread.first?.mid == later.uid)
        try await bob.awaitHandled()
        #expect(bob.received { $0.cmd == .direct }.isEmpty)

        // A kick: another device logs in with the same tag (`session/closed` 4111; RTM/IMClient.swift
        // 2500-2505, LCIMClient.m 806-808 and 983-991).
        let phone = try await sdk.login("dave", on: server, tag: "mobile")
        _ = try await sdk.login("dave", on: server, tag: "mobile")
        let kicked = try await phone.nextPush(as: sdk, "session/closed") { $0.cmd == .session && $0.op == .closed }
        #expect(kicked.sessionMessage.code == ErrorCode.sessionConflict.rawValue)
        try await server.stop()
    }

    /// Two iPhones of one client with no tag: what one acknowledged still reaches the other,
    /// on `lc.protobuf2.1` (the Swift SDK without unread counts, RTM/IMClient.swift 120-143),
    /// where missed messages are pushed at login.
    @Test func twoIPhonesOfOneClientKeepQueuesOfTheirOwn() async throws {
        let server = try await TestServer.start()
        let sdk = PhoneSDK.swift
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        let phoneA = try await sdk.login("bob", on: server, device: UUID().uuidString.lowercased(), subprotocol: .protobuf1)
        let phoneBDevice = UUID().uuidString.lowercased()
        let phoneB = try await sdk.login("bob", on: server, device: phoneBDevice, subprotocol: .protobuf1)
        phoneB.close()
        try await phoneA.awaitHandled()

        let sent = try await alice.sendText("for both phones", cid: cid)
        let onA = try await phoneA.nextPush(as: sdk, "direct") { $0.cmd == .direct }.directMessage
        var ack = GenericCommand()
        ack.cmd = .ack
        ack.ackMessage.cid = cid
        ack.ackMessage.mid = onA.id
        phoneA.send(ack)
        try await phoneA.awaitHandled()

        let backB = try await sdk.login("bob", on: server, device: phoneBDevice, subprotocol: .protobuf1)
        let onB = try await backB.nextPush(as: sdk, "direct") { $0.cmd == .direct }.directMessage
        #expect(onB.id == sent.uid)
        try await server.stop()
    }

    /// A device UUID sent as `deviceToken` before APNs gives a token (Foundation/Utils/
    /// LCUtils.m 215-271 by way of LCIMClient.m 474-475; RTM/IMClient.swift 1347-1348) is no
    /// push address: the offline member's push decision names no device for it. The APNs
    /// token of a later login is one.
    @Test func aDeviceUUIDIsNoPushAddress() async throws {
        let push = RecordingPushGateway()
        let server = try await TestServer.start(push: push)
        let sdk = PhoneSDK.objectiveC
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        let bob = try await sdk.login("bob", on: server, device: "1f0e3dad-9990-4a5e-9c3b-8d5b2f6e7a10")
        bob.close()
        try await alice.waitUntilOffline("bob")
        _ = try await alice.sendText("no device yet", cid: cid)
        #expect(try await push.next().devices["bob"] ?? [] == [])

        let token = String(repeating: "ab12", count: 16)
        let again = try await sdk.login("bob", on: server, device: token)
        again.close()
        try await alice.waitUntilOffline("bob")
        _ = try await alice.sendText("now with a token", cid: cid)
        #expect(try await push.next().devices["bob"]?.map(\.token) == [token])
        try await server.stop()
    }
}
