import Foundation
import SwitchboardWire
import Testing

/// Many senders at once whose receivers are offline: every message takes the push path.
@Suite struct OfflineLoadTests {
    /// Regression: reading device tokens for the push blocked Swift's cooperative threads on
    /// SQLite's reader pool, and a handful of concurrent senders hung the whole server. The
    /// server runs in a process of its own so that a hang fails the test instead of stalling it.
    @Test func manySendersToOfflineReceiversAreAllAcknowledged() async throws {
        let server = try await ServerProcess.start(dataDirectory: TestServer.temporaryDirectory())
        defer { server.stopIfRunning() }
        let senders = 16
        let perSender = 40
        var conversations: [(TestClient, String)] = []
        for index in 0..<senders {
            let sender = try await TestClient.login("sender\(index)", port: server.port)
            conversations.append((sender, try await sender.startConversation(members: ["away\(index)"])))
        }
        let acknowledged = try await withThrowingTaskGroup(of: Int.self) { group in
            for (sender, cid) in conversations {
                group.addTask {
                    for number in 0..<perSender {
                        try await sender.sendText("message \(number)", cid: cid)
                    }
                    return perSender
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(acknowledged == senders * perSender)
        // The server still takes new connections.
        let late = try await TestClient.login("late", port: server.port)
        #expect(try await late.request(.echo).cmd == .echo)
    }
}
