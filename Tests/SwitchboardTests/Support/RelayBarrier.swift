import Foundation
import SwitchboardWire

/// Two clients of their own, one on each of two nodes, in a conversation: a message sent
/// each way tells a test that each node has handled all the other relayed before. A node
/// sends its relays out in the order published and handles the others' one at a time, in
/// their order (see `PostgresNodeLink`), so a node that has delivered a later message has
/// carried out every relay before it; what those were to send to a connection is in that
/// connection's queue, ahead of anything it handles after (see `SDKClient.awaitHandled`).
struct RelayBarrier {
    private let onA: TestClient
    private let onB: TestClient
    private let cid: String

    init(between a: ServerProcess, and b: ServerProcess) async throws {
        onA = try await TestClient.login("barrier-a", port: a.port)
        onB = try await TestClient.login("barrier-b", port: b.port)
        cid = try await onA.startConversation(members: ["barrier-b"])
    }

    /// Returns once each node has handled what the other published before the call.
    func pass() async throws {
        try await cross(from: onA, to: onB)
        try await cross(from: onB, to: onA)
    }

    private func cross(from sender: TestClient, to receiver: TestClient) async throws {
        let marker = UUID().uuidString
        try await sender.sendText(marker, cid: cid)
        _ = try await receiver.next(timeout: .seconds(30), "the barrier's message") { $0.cmd == .direct && $0.directMessage.msg == marker }
    }
}
