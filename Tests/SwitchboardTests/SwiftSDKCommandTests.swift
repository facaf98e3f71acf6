import Foundation
import SwitchboardJSON
import SwitchboardWire
import Testing

/// Commands only the Swift SDK sends, answered as it reads them: it takes the fields and
/// not the op (swift-sdk `Sources/RTM/IMConversation.swift`), so each answer is checked by
/// the field that SDK reads, decoded as strictly as it decodes.
@Suite struct SwiftSDKCommandTests {
    private let sdk = PhoneSDK.swift

    /// `conv/is_member` sends `cids`, never `cid`, and reads `results` as a JSON object of
    /// booleans (IMConversation.swift 1790-1808).
    @Test func isMemberAnswersEachConversationWithABoolean() async throws {
        let server = try await TestServer.start()
        let alice = try await sdk.login("alice", on: server)
        let dave = try await sdk.login("dave", on: server)
        let cid = try await alice.startConversation(members: ["bob"])
        let missing = "5f0000000000000000000000"

        for (client, expected) in [(alice, true), (dave, false)] {
            var ask = GenericCommand.conversation(.isMember, cid: "")
            ask.convMessage.clearCid()
            ask.convMessage.cids = [cid, missing]
            let reply = try await client.request(ask)
            #expect(PhoneSDK.decodes(reply))
            let results = try #require(try JSONValue(parsing: reply.convMessage.results.data).objectValue)
            #expect(results[cid] == .bool(expected) && results[missing] == .bool(false))
        }
        try await server.stop()
    }

    /// `conv/members` of a chat room: who is online, in `m`, at most `limit`
    /// (IMConversation.swift 2935-2957).
    @Test func membersListsWhoOfAChatRoomIsOnline() async throws {
        let server = try await TestServer.start()
        let alice = try await sdk.login("alice", on: server)
        let bob = try await sdk.login("bob", on: server)
        let room = try await alice.request(.startConversation(members: [], transient: true)).convMessage.cid
        _ = try await bob.request(.conversation(.add, cid: room, members: ["bob"]))

        var ask = GenericCommand.conversation(.members, cid: room)
        ask.convMessage.limit = 50
        #expect(Set(try await alice.request(ask).convMessage.m) == ["alice", "bob"])
        ask.convMessage.limit = 1
        #expect(try await alice.request(ask).convMessage.m.count == 1)
        bob.close()
        try await alice.waitUntilOffline("bob")
        ask.convMessage.limit = 50
        #expect(try await alice.request(ask).convMessage.m == ["alice"])
        try await server.stop()
    }

    /// `conv/check_shutup` sends `m = [member]`; silenced ⇔ the answer's `m` holds it
    /// (IMConversation.swift 2346-2365). `blacklist/check_block` sends `srcCid` and `toPids`;
    /// blocked ⇔ `blockedPids` holds it (IMConversation.swift 2200-2223).
    @Test func checkShutupAndCheckBlockAnswerInTheFieldsTheSDKReads() async throws {
        let server = try await TestServer.start()
        let alice = try await sdk.login("alice", on: server)
        let cid = try await alice.startConversation(members: ["bob", "carol"])
        _ = try await alice.request(.conversation(.addShutup, cid: cid, members: ["carol"]))
        _ = try await alice.request(.blacklist(.block, cid: cid, clients: ["dave"]))

        for (member, silenced) in [("carol", true), ("bob", false)] {
            let reply = try await alice.request(.conversation(.checkShutup, cid: cid, members: [member]))
            #expect(reply.hasConvMessage && reply.convMessage.m.contains(member) == silenced)
        }
        for (member, blocked) in [("dave", true), ("bob", false)] {
            let reply = try await alice.request(.blacklist(.checkBlock, cid: cid, clients: [member]))
            #expect(reply.hasBlacklistMessage && reply.blacklistMessage.blockedPids.contains(member) == blocked)
        }
        // Members ask; others are refused as for the lists themselves.
        let dave = try await sdk.login("eve", on: server)
        let refused = try await dave.request(.conversation(.checkShutup, cid: cid, members: ["carol"]))
        #expect(refused.cmd == .error && refused.errorMessage.code == ErrorCode.conversationMembershipRequired.rawValue)
        try await server.stop()
    }

    /// A unique `conv/start` that finds the conversation says so with `existing`, which the
    /// SDK reads to take what it holds of it as outdated (IMClient.swift 870-872).
    @Test func startingAUniqueConversationAgainSaysItExisted() async throws {
        let server = try await TestServer.start()
        let alice = try await sdk.login("alice", on: server)
        let first = try await alice.request(.startConversation(members: ["alice", "bob"], unique: true)).convMessage
        #expect(!first.cid.isEmpty && !first.hasExisting)
        let again = try await alice.request(.startConversation(members: ["bob", "alice"], unique: true)).convMessage
        #expect(again.cid == first.cid && again.existing)
        try await server.stop()
    }

    /// Without unread counts the SDK offers `lc.protobuf2.1` (RTM/RTMConnection.swift 186-189,
    /// IMClient.swift 120-143) and waits for its missed messages pushed; no counts come.
    @Test func onProtobuf21MissedMessagesArePushedAtLogin() async throws {
        let server = try await TestServer.start()
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        let sent = try await alice.sendText("while you were out", cid: cid)

        let bob = try await sdk.login("bob", on: server, subprotocol: .protobuf1)
        let missed = try await bob.nextPush(as: sdk, "direct") { $0.cmd == .direct }.directMessage
        #expect(missed.id == sent.uid && missed.offline)
        try await bob.awaitHandled()
        #expect(bob.received { $0.cmd == .unread }.isEmpty)
        try await server.stop()
    }
}
