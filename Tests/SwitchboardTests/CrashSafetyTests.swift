import Foundation
import GRDB
import Synchronization
import SwitchboardWire
import Testing

/// The server process killed with SIGKILL at random moments while clients send and receive,
/// and restarted on the same data folder each time.
@Suite struct CrashSafetyTests {
    /// What one pair of clients saw over all the runs.
    private final class Ledger: Sendable {
        struct State {
            /// Acknowledged to the sender: ids in the order sent.
            var stored: [String] = []
            /// Numbers of the messages the receiver got, first sightings only, in order.
            var firstSightings: [Int] = []
            var received: Set<String> = []
            /// Acknowledged by the receiver and confirmed handled (an echo answered after it).
            var confirmed: Set<String> = []
            /// Received again after being confirmed.
            var repeats: [String] = []
            var nextNumber = 0
        }
        let state = Mutex(State())
    }

    private final class StopFlag: Sendable {
        private let raised = Atomic<Bool>(false)
        var isRaised: Bool { raised.load(ordering: .relaxed) }
        func raise() { raised.store(true, ordering: .relaxed) }
    }

    private static let pairs = 4

    /// Every missed message comes at login, not only each conversation's newest 20: a
    /// receiver that could not log in during one run (2 s, on a loaded machine) missed more
    /// than that, and the ones trimmed from its queue looked lost (official CI, stop 30).
    private static let config = "messages: { offlinePerConversation: 0 }"

    private func receiverLogin(_ pair: Int, port: Int) async throws -> TestClient {
        let client = try await TestClient.connect(port: port)
        var open = GenericCommand.open("receiver\(pair)", appID: "switchboard-dev")
        open.sessionMessage.deviceID = "phone"
        guard try await client.request(open, timeout: .seconds(2)).op == .opened else { throw TestClient.Timeout(description: "receiver login") }
        return client
    }

    /// Takes what arrived, acknowledges it and confirms the acks were handled.
    private func receive(on client: TestClient, into ledger: Ledger) async throws {
        let directs = try await client.collect(for: .milliseconds(30)) { $0.cmd == .direct }.map(\.directMessage)
        guard !directs.isEmpty else { return }
        ledger.state.withLock { state in
            for direct in directs {
                if state.confirmed.contains(direct.id) { state.repeats.append(direct.id) }
                if state.received.insert(direct.id).inserted, let number = Int(direct.msg.split(separator: "-").last ?? "") {
                    state.firstSightings.append(number)
                }
            }
        }
        client.send(.ack(ids: directs.map(\.id)))
        _ = try await client.request(.echo, timeout: .seconds(2))
        ledger.state.withLock { $0.confirmed.formUnion(directs.map(\.id)) }
    }

    private func send(_ pair: Int, cid: String, port: Int, into ledger: Ledger, until stop: StopFlag) async {
        guard let sender = try? await TestClient.login("sender\(pair)", port: port) else { return }
        while !stop.isRaised {
            let number = ledger.state.withLock { state in
                defer { state.nextNumber += 1 }
                return state.nextNumber
            }
            guard let reply = try? await sender.request(.text("p\(pair)-\(number)", cid: cid), timeout: .seconds(2)) else { return }
            if reply.cmd == .ack, !reply.ackMessage.hasCode {
                ledger.state.withLock { $0.stored.append(reply.ackMessage.uid) }
            }
        }
    }

    private func receive(_ pair: Int, port: Int, into ledger: Ledger, until stop: StopFlag) async {
        guard let receiver = try? await receiverLogin(pair, port: port) else { return }
        while !stop.isRaised, !receiver.isClosed {
            do { try await receive(on: receiver, into: ledger) } catch { return }
        }
    }

    @Test func everyAcknowledgedMessageSurvivesKillsAndReachesItsReceiverOnceInOrder() async throws {
        let directory = TestServer.temporaryDirectory()
        var server = try await ServerProcess.start(dataDirectory: directory, extraConfig: Self.config)
        defer { server.stopIfRunning() }
        var conversations: [String] = []
        for pair in 0..<Self.pairs {
            let sender = try await TestClient.login("sender\(pair)", port: server.port)
            conversations.append(try await sender.startConversation(members: ["receiver\(pair)"]))
        }
        let ledgers = (0..<Self.pairs).map { _ in Ledger() }
        let cids = conversations

        for _ in 0..<4 {
            let stop = StopFlag()
            let port = server.port
            let running = Task {
                await withTaskGroup(of: Void.self) { group in
                    for pair in 0..<Self.pairs {
                        group.addTask { await send(pair, cid: cids[pair], port: port, into: ledgers[pair], until: stop) }
                        group.addTask { await receive(pair, port: port, into: ledgers[pair], until: stop) }
                    }
                }
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 300...1200)))
            server.kill()
            stop.raise()
            await running.value
            server = try await ServerProcess.start(dataDirectory: directory, extraConfig: Self.config)
        }

        // Last run: the receivers catch up on whatever they have not confirmed.
        for pair in 0..<Self.pairs {
            let receiver = try await receiverLogin(pair, port: server.port)
            for _ in 0..<20 { try await receive(on: receiver, into: ledgers[pair]) }
            let sender = try await TestClient.login("sender\(pair)", port: server.port)
            // A fast run acknowledges more than one page of history (1,000).
            let kept = Set(try await sender.wholeHistory(cid: conversations[pair]).map(\.msgID))
            let state = ledgers[pair].state.withLock { $0 }
            print("crash safety, pair \(pair): \(state.stored.count) acknowledged to the sender, \(state.received.count) received")
            #expect(!state.stored.isEmpty)
            #expect(state.stored.filter { !kept.contains($0) }.isEmpty, "acknowledged but not in history")
            #expect(state.stored.filter { !state.received.contains($0) }.isEmpty, "acknowledged but never delivered")
            #expect(state.repeats.isEmpty, "delivered again after the receiver's ack was handled")
            #expect(state.firstSightings == state.firstSightings.sorted(), "delivered out of order")
        }
        _ = try await server.terminate()
        let database = try DatabaseQueue(path: directory + "/switchboard.sqlite")
        #expect(try await database.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
    }
}
