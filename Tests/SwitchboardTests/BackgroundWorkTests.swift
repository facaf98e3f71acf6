import Foundation
import Synchronization
import SwitchboardHooks
import SwitchboardWire
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What follows the sender's ack runs from bounded queues that shutdown drains.
@Suite struct BackgroundWorkTests {
    /// Observes `_messageSent` slowly, as a plugin that calls out somewhere might.
    private final class SlowObserver: SwitchboardPlugin {
        let name = "slow-observer"
        private let seen = Mutex(0)
        var count: Int { seen.withLock { $0 } }

        func messageSent(_ notification: MessageSentNotification) async throws {
            // Longer than a shutdown takes, so only waiting for it counts them all.
            try await Task.sleep(for: .seconds(1))
            seen.withLock { $0 += 1 }
        }
    }

    @Test func shutdownWaitsForTheHooksOfAcknowledgedMessages() async throws {
        let observer = SlowObserver()
        let server = try await TestServer.start(plugins: [observer]) { $0.hooks.defaultBudget = .seconds(3) }
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        for number in 0..<40 { try await alice.sendText("m\(number)", cid: cid) }
        try await server.stop()
        #expect(observer.count == 40)
    }

    @Test func aPushGatewayThatNeverAnswersHoldsUpNothingAndItsQueueStaysBounded() async throws {
        let gateway = try await SilentGateway.start()
        let server = try await TestServer.start { config in
            config.pushProvider = .webhook(url: URL(string: "http://127.0.0.1:\(gateway.port)/push")!, attempts: 1, firstRetry: .seconds(1))
            config.pushQueueJobs = 5
            config.shutdownDrainSeconds = 1
        }
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        let started = ContinuousClock.now
        for number in 0..<60 { try await alice.sendText("m\(number)", cid: cid) }
        // 16 pushes hang in the gateway, 5 wait; the rest are dropped and counted. On a
        // loaded machine the sends can outlast the webhook's 10 s timeout, which frees the 16
        // for more each time. Pushes are queued after their acks: the last few may be
        // counted a moment after the sends.
        var dropped = 0
        var expected = 0
        for _ in 0..<50 {
            let rounds = Int((ContinuousClock.now - started) / .seconds(10))
            expected = 60 - 16 * (1 + rounds) - 5
            dropped = try await server.metric(#"switchboard_work_jobs_dropped_total{queue="push"}"#)
            if dropped >= expected { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(dropped > 0 && dropped >= expected)
        try await server.stop()
        await gateway.stop()
    }
}
