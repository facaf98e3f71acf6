import Synchronization
import SwitchboardHooks
import SwitchboardWire
import Testing

/// One connection's messages: hooks side by side, the rest in the order sent.
@Suite struct SendSequenceTests {
    /// Contents whose `_messageReceived` has started.
    private final class Started: Sendable {
        let contents = Mutex<Set<String>>([])
        func contains(_ content: String) -> Bool { contents.withLock { $0.contains(content) } }
    }

    /// The hook of "first" holds until the hook of "second" has started, or gives up after
    /// a few seconds (within its budget): with the messages handled one after the other it
    /// always gives up.
    private static func rendezvous() -> ScriptedPlugin {
        let started = Started()
        return ScriptedPlugin(name: "rendezvous", budget: .seconds(10)) { request in
            started.contents.withLock { _ = $0.insert(request.content) }
            guard request.content == "first" else { return .passThrough }
            let deadline = ContinuousClock.now + .seconds(5)
            while ContinuousClock.now < deadline, !started.contains("second") {
                try await Task.sleep(for: .milliseconds(5))
            }
            return MessageResult(content: started.contains("second") ? "first, met second" : "first, alone")
        }
    }

    @Test func aConnectionsMessagesRunTheirHooksSideBySideAndAreStoredAckedAndDeliveredInOrder() async throws {
        let server = try await TestServer.start(plugins: [Self.rendezvous()])
        let alice = try await server.login("alice")
        let bob = try await server.login("bob")
        let cid = try await alice.startConversation(members: ["bob"])
        var serials: [Int32] = []
        for text in ["first", "second", "third"] {
            var command = GenericCommand.text(text, cid: cid)
            command.i = alice.nextSerial()
            serials.append(command.i)
            alice.send(command)
        }

        var acks: [AckCommand] = []
        for _ in serials {
            let ack = try await alice.next { $0.cmd == .ack }
            #expect(!ack.ackMessage.hasCode)
            acks.append(ack.ackMessage)
            #expect(ack.i == serials[acks.count - 1])
        }
        var delivered: [String] = []
        for _ in serials { delivered.append(try await bob.nextMessage().msg) }
        #expect(delivered == ["first, met second", "second", "third"])
        let history = try await alice.request(.logs(cid: cid)).logsMessage.logs
        #expect(history.map(\.data) == delivered)
        #expect(history.map(\.msgID) == acks.map(\.uid))
        #expect(acks.map(\.t) == acks.map(\.t).sorted())
        try await server.stop()
    }

    @Test func aCommandAfterMessagesWaitsForThemAndARefusalKeepsItsPlace() async throws {
        let server = try await TestServer.start(plugins: [Self.rendezvous()])
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        var serials: [Int32] = []
        for command in [GenericCommand.text("first", cid: cid), .text("second", cid: "no-such-conversation"), .text("second", cid: cid)] {
            var command = command
            command.i = alice.nextSerial()
            serials.append(command.i)
            alice.send(command)
        }
        // Sent at once behind them: answered once they are done, and it sees them stored.
        let history = try await alice.request(.logs(cid: cid)).logsMessage.logs
        #expect(history.map(\.data) == ["first, met second", "second"])

        let replies = alice.received { $0.cmd == .ack }
        #expect(replies.map(\.i) == serials)
        #expect(replies.map { $0.ackMessage.code } == [0, ErrorCode.invalidMessagingTarget.rawValue, 0])
        try await server.stop()
    }

    @Test func atMostSixteenOfAConnectionsMessagesAreInFlightAndTheRestFollowInOrder() async throws {
        let hooks = Mutex<(running: Int, most: Int, released: Bool)>((0, 0, false))
        let holding = ScriptedPlugin(name: "holding", budget: .seconds(10)) { _ in
            hooks.withLock { $0.running += 1; $0.most = max($0.most, $0.running) }
            while !hooks.withLock({ $0.released }) { try await Task.sleep(for: .milliseconds(5)) }
            hooks.withLock { $0.running -= 1 }
            return .passThrough
        }
        let server = try await TestServer.start(plugins: [holding])
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        var serials: [Int32] = []
        for number in 1...20 {
            var command = GenericCommand.text("\(number)", cid: cid)
            command.i = alice.nextSerial()
            serials.append(command.i)
            alice.send(command)
        }
        let deadline = ContinuousClock.now + .seconds(5)
        while hooks.withLock({ $0.running < 16 }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        hooks.withLock { $0.released = true }

        var acked: [Int32] = []
        for _ in serials { acked.append(try await alice.next { $0.cmd == .ack }.i) }
        #expect(acked == serials)
        #expect(hooks.withLock { $0.most } == 16)
        #expect(try await alice.request(.logs(cid: cid)).logsMessage.logs.map(\.data) == (1...20).map { "\($0)" })
        try await server.stop()
    }
}
