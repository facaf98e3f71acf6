import Foundation
import SwitchboardCore
@testable import SwitchboardStore
import Testing

/// A message sent again with the same `dt` is found among its conversation's recent tokens,
/// kept in memory and read back from the rows: after a restart too, and never mistaken for
/// another message.
@Suite(.storeBlind) struct RecentClientTokensTests {
    private func conversation() -> Conversation {
        Conversation(
            id: Identifiers.conversationID(), kind: .normal, name: nil, creator: "alice", members: ["alice", "bob"], attributes: [:],
            uniqueKey: nil, createdAt: 1, updatedAt: 1
        )
    }

    private func message(in conversation: Conversation, token: String, at timestamp: Int64, from sender: String = "alice") -> Message {
        Message(
            id: Identifiers.messageID(), conversationID: conversation.id, from: sender, content: .text("hi"), timestamp: timestamp,
            clientToken: token
        )
    }

    @Test func aMessageSentAgainAfterARestartIsStoredOnce() async throws {
        let path = TestServer.temporaryDirectory() + "/switchboard.sqlite"
        let stored = conversation()
        let first = try await {
            let store = try SQLiteStore(path: path)
            try await store.createConversation(stored)
            return try await store.append(message(in: stored, token: "t1", at: 1_000), queueFor: .everyMember)
        }()
        let reopened = try SQLiteStore(path: path)
        let again = try await reopened.append(message(in: stored, token: "t1", at: 5_000), queueFor: .everyMember)
        #expect(again.id == first.id && again.timestamp == 1_000)
        // The same token from another sender is another message.
        let bobs = try await reopened.append(message(in: stored, token: "t1", at: 6_000, from: "bob"), queueFor: .everyMember)
        #expect(bobs.id != first.id)
        #expect(try await reopened.append(message(in: stored, token: "t1", at: 7_000, from: "bob"), queueFor: .everyMember).id == bobs.id)
    }

    /// What the store promises, and no more: a copy sent more than `duration` after the first,
    /// or after `perConversation` newer messages with tokens, is stored as a message of its own.
    @Test func aCopyIsRecognizedWithinTheWindowOnly() async throws {
        let store = try SQLiteStore.inMemory()
        let stored = conversation()
        try await store.createConversation(stored)
        let window = store.clientTokens.duration
        let first = try await store.append(message(in: stored, token: "late", at: 1_000), queueFor: .everyMember)
        #expect(try await store.append(message(in: stored, token: "late", at: 1_000 + window), queueFor: .everyMember).id == first.id)
        #expect(try await store.append(message(in: stored, token: "late", at: 1_001 + window), queueFor: .everyMember).id != first.id)

        let limit = store.clientTokens.perConversation
        let other = conversation()
        try await store.createConversation(other)
        let oldest = try await store.append(message(in: other, token: "oldest", at: 10), queueFor: .everyMember)
        for index in 0..<limit - 1 {
            _ = try await store.append(message(in: other, token: "n\(index)", at: 11), queueFor: .everyMember)
        }
        #expect(try await store.append(message(in: other, token: "oldest", at: 12), queueFor: .everyMember).id == oldest.id)
        _ = try await store.append(message(in: other, token: "newer", at: 12), queueFor: .everyMember)
        #expect(try await store.append(message(in: other, token: "oldest", at: 13), queueFor: .everyMember).id != oldest.id)
    }

    /// A token recorded in a transaction that was rolled back names a `seq` that another
    /// message may take: the row found must be checked.
    @Test func aTokenPointingAtAnotherMessageIsNotACopy() async throws {
        let store = try SQLiteStore.inMemory()
        let stored = conversation()
        try await store.createConversation(stored)
        let other = try await store.append(message(in: stored, token: "a", at: 100), queueFor: .everyMember)
        store.clientTokens.record(in: stored.id, sender: "alice", token: "b", seq: try #require(other.seq), timestamp: 100)
        let new = try await store.append(message(in: stored, token: "b", at: 200), queueFor: .everyMember)
        #expect(new.id != other.id)
        #expect(try await store.append(message(in: stored, token: "b", at: 300), queueFor: .everyMember).id == new.id)
    }

    @Test func conversationsPastTheCapacityAreDroppedWhole() {
        let tokens = RecentClientTokens(duration: 1_000, perConversation: 3, capacity: (tokens: 4, conversations: 2))
        tokens.fill("c1", with: [("alice", "a", 1, 10), ("alice", "b", 2, 10)])
        #expect(tokens.seq(in: "c1", sender: "alice", token: "b", at: 10) == 2)
        tokens.record(in: "c2", sender: "bob", token: "x", seq: 3, timestamp: 10)
        tokens.record(in: "c2", sender: "bob", token: "y", seq: 4, timestamp: 10)
        tokens.record(in: "c2", sender: "bob", token: "z", seq: 5, timestamp: 10)
        #expect(!tokens.isHeld("c1") && tokens.isHeld("c2"))
        // A conversation's own tokens past `perConversation` go oldest first.
        tokens.record(in: "c2", sender: "bob", token: "w", seq: 6, timestamp: 10)
        #expect(tokens.seq(in: "c2", sender: "bob", token: "x", at: 10) == nil)
        #expect(tokens.seq(in: "c2", sender: "bob", token: "y", at: 10) == 4)
        #expect(tokens.seq(in: "c2", sender: "bob", token: "w", at: 1_010) == 6)
        #expect(tokens.seq(in: "c2", sender: "bob", token: "w", at: 1_011) == nil)
        // Conversations count too, however few tokens each holds.
        tokens.record(in: "c3", sender: "carol", token: "x", seq: 7, timestamp: 10)
        tokens.record(in: "c4", sender: "carol", token: "y", seq: 8, timestamp: 10)
        #expect([tokens.isHeld("c2"), tokens.isHeld("c3")].filter { $0 }.count == 1 && tokens.isHeld("c4"))
    }

    /// A conversation gone quiet does not keep its tokens until the total reaches the capacity.
    @Test func quietConversationsAreSweptAway() {
        let tokens = RecentClientTokens(duration: 1_000, perConversation: 10, capacity: (tokens: 1_000_000, conversations: 100))
        tokens.record(in: "quiet", sender: "alice", token: "a", seq: 1, timestamp: 0)
        // The sweep at the 1,000th record finds it still within the window.
        for index in 1..<RecentClientTokens.recordsBetweenSweeps {
            tokens.record(in: "busy", sender: "bob", token: "b\(index)", seq: Int64(index + 1), timestamp: 500)
        }
        #expect(tokens.isHeld("quiet"))
        for index in 0..<RecentClientTokens.recordsBetweenSweeps {
            tokens.record(in: "busy", sender: "bob", token: "c\(index)", seq: Int64(index + 2_000), timestamp: 1_001)
        }
        #expect(!tokens.isHeld("quiet") && tokens.isHeld("busy"))
    }
}
