import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwitchboardWire
import Testing

/// Chat-room message priorities when a member falls behind.
@Suite struct RoomPriorityTests {
    @Test func aMemberWhoFallsBehindLosesLowPriorityMessagesFirst() async throws {
        let server = try await TestServer.start()
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.request(.startConversation(members: [], name: "lobby", transient: true)).convMessage.cid
        _ = try await bob.request(.conversation(.add, cid: cid, members: ["bob"]))

        // bob stops reading: once the socket buffers are full his queue on the server grows.
        bob.setPaused(true)
        // Transient chatter is not stored, which keeps this quick.
        let filler = String(repeating: "x", count: 5000)
        var sent = 0
        while try await shedCount(server) == 0 && sent < 20_000 {
            for _ in 0..<99 {
                alice.send(Self.roomText(filler, cid: cid, priority: 3, transient: true))
            }
            _ = try await alice.request(Self.roomText(filler, cid: cid, priority: 3, transient: true), timeout: .seconds(30))
            sent += 100
        }
        #expect(try await shedCount(server) > 0)
        _ = try await alice.request(Self.roomText("important", cid: cid, priority: 1))
        bob.setPaused(false)

        _ = try await bob.next(timeout: .seconds(30)) { $0.directMessage.msg == "important" }
        // Everything kept for bob was queued before "important"; the rest was shed.
        try await bob.awaitHandled()
        let chatter = bob.received { $0.cmd == .direct }
        #expect(chatter.count < sent)
        #expect(!bob.isClosed)
        try await server.stop()
    }

    /// A chat-room message with a priority (1 high, 2 normal, 3 low, as the SDKs send it).
    private static func roomText(_ text: String, cid: String, priority: Int32, transient: Bool = false) -> GenericCommand {
        var command = GenericCommand.text(text, cid: cid, transient: transient)
        command.priority = priority
        return command
    }

    private func shedCount(_ server: TestServer) async throws -> Int {
        let (data, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(server.port)/metrics")!)
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("switchboard_room_messages_shed_total ") }
        return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
    }
}
