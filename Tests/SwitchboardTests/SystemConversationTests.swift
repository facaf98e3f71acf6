import Foundation
import SwitchboardCore
import SwitchboardWire
import Testing

/// System conversations (LeanCloud's service conversations): found with `sys`, joined and
/// left by subscribing.
@Suite struct SystemConversationTests {
    @Test func aSystemConversationIsMarkedAndSubscribedToByJoining() async throws {
        let directory = TestServer.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let cid = Identifiers.conversationID()
        try await TestDatabase.withStore(dataDirectory: directory) { store in
            try await store.createConversation(Conversation(
                id: cid, kind: .system, name: "news", creator: "system", members: [], attributes: [:], uniqueKey: nil, createdAt: 1, updatedAt: 1
            ))
        }
        let server = try await TestServer.start(dataDirectory: directory)
        let alice = try await server.login("alice")
        let found = try #require(try await alice.queryConversations(where: #"{"sys":true}"#).first)
        #expect(found["objectId"] as? String == cid && found["sys"] as? Bool == true)
        #expect(try await alice.request(.conversation(.add, cid: cid, members: ["alice"])).convMessage.allowedPids == ["alice"])
        #expect(try await alice.request(.conversation(.remove, cid: cid, members: ["alice"])).convMessage.allowedPids == ["alice"])
        try await server.stop()
    }
}
