import Foundation
import SwitchboardWire
import Testing

/// Every command's cost is bounded by its size: long lists get LeanCloud's error codes
/// instead of work, and the server keeps answering others. On the core alone.
@Suite struct CommandBoundsTests {
    @Test func longListsAreRefused() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        let ids = (0..<1001).map { String(format: "%024x", $0) }

        let ack = try await alice.request(.ack(ids: ids))
        #expect(ack.errorMessage.code == 4114)
        let tooMany = try await alice.request(.conversation(.add, cid: cid, members: (0..<501).map { "m\($0)" }))
        #expect(tooMany.errorMessage.code == 4304)
        let start = try await alice.request(.startConversation(members: (0..<501).map { "m\($0)" }))
        #expect(start.errorMessage.code == 4304)

        var patch = GenericCommand()
        patch.cmd = .patch
        patch.op = .modify
        patch.patchMessage.patches = Array(repeating: PatchItem(), count: 101)
        #expect(try await alice.request(patch).errorMessage.code == 4114)

        let terms = (0..<201).map { #""v\#($0)""# }.joined(separator: ",")
        #expect(try await alice.request(.query(where: #"{"name":{"$in":[\#(terms)]}}"#)).errorMessage.code == 4301)
        let nested = String(repeating: #"{"$or":["#, count: 5) + "{}" + String(repeating: "]}", count: 5)
        #expect(try await alice.request(.query(where: nested)).errorMessage.code == 4301)
        #expect(try await alice.request(.query(where: "{}", sort: Array(repeating: "name", count: 9).joined(separator: ","))).errorMessage.code == 4301)
        await server.stop()
    }

    /// IN lists are padded to powers of two so that a few compiled statements serve every
    /// length (one per length kept 60 MB for 2,500 lengths); padded lists still match.
    @Test func paddedAckListsStillMatchTheirMessages() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        let sent = try await alice.sendText("hello", cid: cid)
        let bob = try await server.login("bob")
        _ = try await bob.next { $0.cmd == .direct }
        for length in stride(from: 1, through: 1000, by: 37) {
            bob.send(.ack(ids: (1...length).map { String(format: "%024x", $0) }))
        }
        // 999 ids padded to 1,024, the real one last.
        bob.send(.ack(ids: (1..<999).map { String(format: "%024x", $0) } + [sent.uid]))
        // The acks above are some 14,000 ids: on a loaded machine that can take a while.
        #expect(try await bob.request(.echo, timeout: .seconds(30)).cmd == .echo)
        // The acknowledged message is not redelivered at the next login.
        bob.close()
        await bob.closed()
        let again = try await server.login("bob")
        try await again.awaitHandled()
        #expect(again.received { $0.cmd == .direct }.isEmpty)
        await server.stop()
    }
}
