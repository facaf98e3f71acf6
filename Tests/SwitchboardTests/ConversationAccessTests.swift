import Foundation
import SwitchboardCore
import SwitchboardWire
import Testing

/// What a client that is not a member may see of a conversation and do with it. On the core
/// alone.
@Suite struct ConversationAccessTests {
    /// As on LeanCloud: an outsider finds a group with its last message (the SDK suite's
    /// `withLastMessagesRefreshed` reads it as a non-member), but not its history.
    @Test func outsidersFindConversationsWithTheirLastMessageButNotTheirHistory() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let mallory = try await server.login("mallory")
        let cid = try await alice.startConversation(members: ["bob"], name: "plans")
        try await alice.sendText("the news", cid: cid)

        let seen = try #require(try await mallory.queryConversations(where: "{}").first { $0["objectId"] as? String == cid })
        #expect(seen["name"] as? String == "plans")
        #expect(Set(seen["m"] as? [String] ?? []) == ["alice", "bob"])
        #expect(seen["msg"] as? String == "the news" && seen["msg_from"] as? String == "alice")

        let history = try await mallory.request(.logs(cid: cid))
        #expect(history.errorMessage.code == 4312)
        await server.stop()
    }

    /// Private conversations show outsiders nothing: not the conversation, nor its last
    /// message, nor a filter on it.
    @Test func privateConversationsHideTheirLastMessage() async throws {
        let server = try await CoreHarness.start { $0.privateConversations = true }
        let alice = try await server.login("alice")
        let mallory = try await server.login("mallory")
        let cid = try await alice.startConversation(members: ["bob"], name: "plans")
        try await alice.sendText("the secret", cid: cid)
        #expect(try await mallory.queryConversations(where: #"{"msg":"the secret"}"#).isEmpty)
        #expect(try await mallory.queryConversations(where: #"{"objectId":"\#(cid)"}"#).isEmpty)
        let member = try #require(try await alice.queryConversations(where: #"{"objectId":"\#(cid)"}"#).first)
        #expect(member["msg"] as? String == "the secret")
        await server.stop()
    }

    @Test func chatRoomsHideTheirMembersAndOnlyMembersChangeThem() async throws {
        let server = try await CoreHarness.start { $0.signaturesRequired = false }
        let alice = try await server.login("alice")
        let mallory = try await server.login("mallory")
        let room = try await alice.request(.startConversation(members: [], name: "lobby", transient: true)).convMessage.cid

        let seen = try #require(try await mallory.queryConversations(where: #"{"objectId":"\#(room)"}"#).first)
        #expect(seen["name"] as? String == "lobby")
        #expect(seen["m"] == nil && seen["mu"] == nil)
        #expect(try await mallory.request(.update(cid: room, attributes: #"{"name":"owned"}"#)).errorMessage.code == 4309)
        #expect(try await mallory.request(.conversation(.add, cid: room, members: ["eve"])).errorMessage.code == 4317)
        #expect(try await mallory.request(.logs(cid: room)).errorMessage.code == 4312)
        // Joining a room stays open, and then the room is the member's to use.
        #expect(try await mallory.request(.conversation(.add, cid: room, members: ["mallory"])).op == .added)
        #expect(try await mallory.request(.logs(cid: room)).cmd == .logs)
        await server.stop()
    }

    /// As on LeanCloud: a chat room counts the members online, and a member logging out
    /// leaves it.
    @Test func chatRoomsCountTheOnlineAndLoseMembersWhoLogOut() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let carol = try await server.login("carol")
        let room = try await alice.request(.startConversation(members: [], name: "lobby", transient: true)).convMessage.cid
        for client in [bob, carol] {
            _ = try await client.request(.conversation(.add, cid: room, members: [client === bob ? "bob" : "carol"]))
        }
        #expect(try await alice.request(.conversation(.count, cid: room)).convMessage.count == 3)
        bob.close()
        await bob.closed()
        #expect(try await alice.request(.conversation(.count, cid: room)).convMessage.count == 2)

        #expect(try await carol.request(.closeSession()).op == .closed)
        let members = try #require(try await alice.queryConversations(where: #"{"objectId":"\#(room)"}"#).first?["m"] as? [String])
        #expect(Set(members) == ["alice", "bob"])
        await server.stop()
    }

    @Test func temporaryConversationsExistOnlyForTheirMembers() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let mallory = try await server.login("mallory")
        let temporary = try await alice.request(.startConversation(members: ["bob"], temporary: true)).convMessage.cid

        var byID = GenericCommand.query(where: "{}")
        byID.convMessage.tempConvIds = [temporary]
        let outsider = try await mallory.request(byID)
        #expect(outsider.convMessage.results.data == "[]")
        #expect(try await mallory.request(.conversation(.add, cid: temporary, members: ["mallory"])).errorMessage.code == 4303)
        #expect(try await mallory.request(.conversation(.count, cid: temporary)).errorMessage.code == 4303)
        // A plain query leaves them out even for members; asking by id finds them.
        #expect(try await alice.queryConversations(where: "{}").allSatisfy { $0["objectId"] as? String != temporary })
        #expect(try await alice.request(byID).convMessage.results.data.contains(temporary))
        await server.stop()
    }

    @Test func privateConversationsAreInvisibleAndJoinedOnlyWhenInvitedOrSigned() async throws {
        let server = try await CoreHarness.start { $0.privateConversations = true }
        let alice = try await server.login("alice")
        let mallory = try await server.login("mallory")
        let carol = try await server.login("carol")
        let cid = try await alice.startConversation(members: ["bob"], name: "plans")
        let room = try await alice.request(.startConversation(members: [], name: "lobby", transient: true)).convMessage.cid

        let found = try await mallory.queryConversations(where: "{}").compactMap { $0["objectId"] as? String }
        #expect(!found.contains(cid))
        #expect(found.contains(room), "chat rooms stay public")
        #expect(try await mallory.request(.conversation(.count, cid: cid)).errorMessage.code == 4303)
        #expect(try await mallory.request(.conversation(.add, cid: cid, members: ["mallory"])).errorMessage.code == 4303)

        // Carol cannot see it either, but the app's signing server may let her in.
        #expect(try await carol.request(.conversation(.add, cid: cid, members: ["carol"])).errorMessage.code == 4303)
        let signer = Signature(appID: server.config.appID, masterKey: server.config.masterKey)
        let now = server.clock.now() / 1000
        var signedJoin = GenericCommand.conversation(.add, cid: cid, members: ["carol"])
        signedJoin.convMessage.t = now
        signedJoin.convMessage.n = "join-1"
        signedJoin.convMessage.s = signer.changeMembers(
            clientID: "carol", conversationID: cid, members: ["carol"], timestamp: now, nonce: "join-1", action: .invite
        )
        #expect(try await carol.request(signedJoin).op == .added)
        #expect(try await carol.queryConversations(where: "{}").contains { $0["objectId"] as? String == cid })
        // Someone else's signature does not let Mallory in.
        signedJoin.convMessage.m = ["mallory"]
        #expect(try await mallory.request(signedJoin).errorMessage.code == 4302)
        await server.stop()
    }

    @Test func membersInviteIntoPrivateConversations() async throws {
        let server = try await CoreHarness.start { $0.privateConversations = true }
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: [])
        #expect(try await alice.request(.conversation(.add, cid: cid, members: ["bob"])).op == .added)
        #expect(try await bob.queryConversations(where: "{}").contains { $0["objectId"] as? String == cid })
        try await bob.sendText("hi", cid: cid)
        await server.stop()
    }
}
