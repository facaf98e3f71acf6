import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
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

@Suite struct DatabaseFileTests {
    /// SQLite keeps writing to a database file deleted under it; acknowledging those writes
    /// would lose the messages at the next restart.
    @Test(.disabled(if: TestDatabase.usesPostgres, "SQLite's file")) func aDeletedDatabaseFileStopsAcknowledgements() async throws {
        let server = try await TestServer.start()
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        try await alice.sendText("stored", cid: cid)
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: server.config.databasePath + suffix)
        }
        let refused = try await alice.request(.text("would be lost", cid: cid))
        #expect(refused.cmd == .ack && refused.ackMessage.code == ErrorCode.internalError.rawValue)
        let (_, health) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(server.port)/health")!)
        #expect((health as? HTTPURLResponse)?.statusCode == 503)
        try await server.stop()
    }
}
