import Foundation
import SwitchboardHooks
import SwitchboardWire
import Testing

/// The built-in keyword filter seen by real clients: masked text, -4408 patches, reloads.
@Suite struct KeywordFilterTests {
    private let directory = TestServer.temporaryDirectory()

    private func server(_ words: [String], kinds: Set<ConversationKind> = Set(ConversationKind.allCases)) async throws -> TestServer {
        let file = directory + "/keywords.txt"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try (["# test list"] + words).joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        return try await TestServer.start { config in
            config.keywordFilter = KeywordFilter.Settings(file: file, conversationKinds: kinds)
        }
    }

    @Test func membersReceiveMaskedTextAndTheSenderAPatch() async throws {
        let server = try await server(["darn", "heck"])
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        let ack = try await alice.sendText("Oh DARN it, what the heck", cid: cid)
        #expect(try await bob.nextMessage().msg == "Oh *** it, what the ***")
        let patch = try #require(try await alice.next { $0.cmd == .patch }.patchMessage.patches.first)
        #expect(patch.mid == ack.uid && patch.patchCode == -4408 && patch.data == "Oh *** it, what the ***")
        #expect(try await bob.request(.logs(cid: cid)).logsMessage.logs.map(\.data) == ["Oh *** it, what the ***"])

        // Clean text goes through untouched, without a patch.
        try await alice.sendText("all fine", cid: cid)
        #expect(try await bob.nextMessage().msg == "all fine")
        try await alice.awaitHandled()
        #expect(alice.received { $0.cmd == .patch }.isEmpty)
        try await server.stop()
    }

    @Test func onlyTheTextOfATypedMessageIsFiltered() async throws {
        let server = try await server(["darn"])
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        try await alice.sendText(#"{"_lctype":-1,"_lctext":"darn","_lcattrs":{"darn":"darn"}}"#, cid: cid)
        let typed = try JSONSerialization.jsonObject(with: Data(try await bob.nextMessage().msg.utf8)) as? [String: Any]
        #expect(typed?["_lctext"] as? String == "***")
        #expect((typed?["_lcattrs"] as? [String: String])?["darn"] == "darn")
        try await server.stop()
    }

    @Test func onlyTheConfiguredKindsOfConversationAreFiltered() async throws {
        let server = try await server(["darn"], kinds: [.group])
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let pair = try await alice.startConversation(members: ["bob"])
        let group = try await alice.startConversation(members: ["bob", "carol"])
        try await alice.sendText("darn", cid: pair)
        #expect(try await bob.nextMessage().msg == "darn")
        try await alice.sendText("darn", cid: group)
        #expect(try await bob.nextMessage().msg == "***")
        try await server.stop()
    }

    @Test func editsAreFilteredToo() async throws {
        let server = try await server(["darn"])
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        let sent = try await alice.sendText("fine", cid: cid)
        _ = try await bob.nextMessage()
        _ = try await alice.request(.patch(cid: cid, mid: sent.uid, timestamp: sent.t, text: "darn it"))
        #expect(try await bob.next { $0.cmd == .patch }.patchMessage.patches.first?.data == "*** it")
        #expect(try await alice.next { $0.cmd == .patch && !$0.hasI }.patchMessage.patches.first?.patchCode == -4408)
        try await server.stop()
    }

    @Test func savingTheListChangesTheNextMessages() async throws {
        let server = try await server(["darn"])
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        try "blast\n".write(toFile: directory + "/keywords.txt", atomically: false, encoding: .utf8)
        var received = ""
        for _ in 0..<100 where received != "*** darn" {
            try await alice.sendText("blast darn", cid: cid)
            received = try await bob.nextMessage().msg
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(received == "*** darn")
        try await server.stop()
    }
}
