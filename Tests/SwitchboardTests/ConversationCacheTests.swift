import Foundation
import SwitchboardCore
@testable import SwitchboardStore
import Testing

/// The store keeps conversations in memory; what it hands out must always be what was last
/// committed.
@Suite(.storeBlind) struct ConversationCacheTests {
    private func conversation(_ id: String = Identifiers.conversationID(), members: [String] = ["alice", "bob"], lastMessageAt: Int64? = nil) -> Conversation {
        Conversation(
            id: id, kind: .normal, name: nil, creator: "alice", members: members, attributes: [:], uniqueKey: nil,
            createdAt: 1, updatedAt: 1, lastMessageAt: lastMessageAt
        )
    }

    private func store() throws -> SQLiteStore {
        try SQLiteStore.inMemory()
    }

    @Test func aReadThatBeganBeforeAWriteDoesNotFill() {
        let cache = ConversationCache(capacity: 10)
        let old = conversation("c1")
        let start = cache.beginRead()
        cache.invalidate(["c1"])
        cache.fill([old], readSince: start)
        #expect(cache.lookUp(["c1"]).missing == ["c1"])

        let after = cache.beginRead()
        cache.fill([old], readSince: after)
        #expect(cache.lookUp(["c1"]).found == [old])
    }

    @Test func aMessageStoredDuringAReadStopsItFillingAndMovesTheCachedTime() {
        let cache = ConversationCache(capacity: 10)
        let start = cache.beginRead()
        cache.messageStored(in: "c1", at: 50)
        cache.fill([conversation("c1", lastMessageAt: 10)], readSince: start)
        #expect(cache.lookUp(["c1"]).missing == ["c1"])

        cache.fill([conversation("c1", lastMessageAt: 50)], readSince: cache.beginRead())
        cache.messageStored(in: "c1", at: 70)
        cache.messageStored(in: "c1", at: 60)
        #expect(cache.lookUp(["c1"]).found.first?.lastMessageAt == 70)
    }

    @Test func forgettingWritesStopsEveryReadUnderWayFromFilling() {
        let cache = ConversationCache(capacity: 10)
        let start = cache.beginRead()
        for number in 0...10_000 { cache.invalidate(["other\(number)"]) }
        cache.fill([conversation("c1")], readSince: start)
        #expect(cache.lookUp(["c1"]).missing == ["c1"])
    }

    @Test func itHoldsAtMostItsCapacity() {
        let cache = ConversationCache(capacity: 3)
        let start = cache.beginRead()
        cache.fill((0..<5).map { conversation("c\($0)") }, readSince: start)
        #expect(cache.lookUp((0..<5).map { "c\($0)" }).found.count == 3)
    }

    @Test func theStoreGivesBackEachCommittedChange() async throws {
        let store = try store()
        var stored = conversation()
        try await store.createConversation(stored)
        #expect(try await store.conversation(id: stored.id)?.members == ["alice", "bob"])

        stored.members.append("carol")
        stored.name = "trio"
        try await store.saveConversation(stored)
        #expect(try await store.conversation(id: stored.id) == stored)

        let message = Message(id: Identifiers.messageID(), conversationID: stored.id, from: "alice", content: .text("hi"), timestamp: 500)
        _ = try await store.append(message, queueFor: .only(["bob"]))
        #expect(try await store.conversation(id: stored.id)?.lastMessageAt == 500)

        try await store.deleteConversation(id: stored.id)
        #expect(try await store.conversation(id: stored.id) == nil)
    }

    @Test func expiredConversationsLeaveTheCache() async throws {
        let store = try store()
        var temporary = conversation()
        temporary.kind = .temporary
        temporary.expiresAt = 1000
        try await store.createConversation(temporary)
        #expect(try await store.conversation(id: temporary.id) != nil)
        #expect(try await store.deleteConversations(expiredBefore: 2000) == 1)
        #expect(try await store.conversations(ids: [temporary.id, temporary.id]).isEmpty)
    }

    /// A message sent again after a lost ack is not stored twice, and the conversation keeps
    /// the first copy's time.
    @Test func aMessageSentAgainLeavesTheLastMessageTimeAtTheFirstCopy() async throws {
        let store = try store()
        let stored = conversation()
        try await store.createConversation(stored)
        #expect(try await store.conversation(id: stored.id) != nil)
        let first = Message(id: Identifiers.messageID(), conversationID: stored.id, from: "alice", content: .text("hi"), timestamp: 500, clientToken: "t1")
        var again = first
        again.id = Identifiers.messageID()
        again.timestamp = 900
        _ = try await store.append(first, queueFor: .only(["bob"]))
        #expect(try await store.append(again, queueFor: .only(["bob"])).id == first.id)
        #expect(try await store.conversation(id: stored.id)?.lastMessageAt == 500)
    }

    /// A change saved from a copy read before a message must not take the conversation's
    /// last message time back.
    @Test func savingAnOlderCopyKeepsTheLastMessageTime() async throws {
        let store = try store()
        var stored = conversation()
        try await store.createConversation(stored)
        let message = Message(id: Identifiers.messageID(), conversationID: stored.id, from: "alice", content: .text("hi"), timestamp: 500)
        _ = try await store.append(message, queueFor: .only(["bob"]))
        stored.name = "renamed"
        try await store.saveConversation(stored)
        #expect(try await store.conversation(id: stored.id)?.lastMessageAt == 500)
        #expect(try await store.conversation(id: stored.id)?.name == "renamed")
    }
}
