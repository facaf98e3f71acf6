import Foundation
import SwitchboardWire
import Testing

@Suite struct PersistenceTests {
    @Test func conversationsHistoryAndPendingMessagesSurviveARestart() async throws {
        let directory = TestServer.temporaryDirectory()
        var server = try await TestServer.start(dataDirectory: directory)
        var alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"], name: "kept")
        let sent = try await alice.sendText("remember me", cid: cid)
        try await server.stop()

        server = try await TestServer.start(dataDirectory: directory)
        alice = try await server.login("alice")
        let history = try await alice.request(.logs(cid: cid))
        #expect(history.logsMessage.logs.map(\.msgID) == [sent.uid])
        let found = try await alice.request(.query(where: #"{"objectId":"\#(cid)"}"#))
        #expect(found.convMessage.results.data.contains("kept"))
        let bob = try await server.login("bob")
        #expect(try await bob.nextMessage().id == sent.uid)
        // Timestamps continue after those stored before the restart.
        let later = try await alice.sendText("after restart", cid: cid)
        #expect(later.t > sent.t)
        try await server.stop()
    }
}
