import Logging
import ServiceLifecycle
import SwitchboardCore
import SwitchboardData
import SwitchboardHooks
@testable import SwitchboardServer
import SwitchboardStore
import Testing

/// A push waiting to be tried again holds no queue worker, and the server's shutdown ends the
/// wait with the push counted once, dropped, before the server has stopped.
@Suite struct DevicePushDeliveryTests {
    @Test func aWaitingRetryHoldsNoWorkerAndShutdownCountsItDropped() async throws {
        var logger = Logger(label: "switchboard-test")
        logger.logLevel = .critical
        let metrics = HookMetrics.inOwnRegistry()
        // One worker: a push waiting in it would hold up every other.
        let queue = WorkQueue(name: "push_test", capacity: 10, workers: 1, whenFull: .drop, metrics: .init(name: "push_test", in: metrics))
        let delivery = DevicePushDelivery(
            service: "Test", attempts: 5, firstRetry: .seconds(3600), store: try SQLiteStore(path: TestServer.temporaryDirectory() + "/data.sqlite"),
            queue: queue, metrics: metrics, logger: logger
        )
        let group = ServiceGroup(configuration: .init(
            services: [WorkQueueService(queue: queue, drainTime: .seconds(10), logger: logger)], logger: logger
        ))
        let running = Task { try await group.run() }
        let posts = CallCounter()
        let sentAt = SystemWallClock().now()
        await delivery.submit(devices: 1, messageID: "busy") {
            await delivery.deliver(to: "busy-device", messageID: "busy", sentAt: sentAt) {
                _ = posts.next()
                return .later("503 ServiceUnavailable")
            }
        }
        await delivery.submit(devices: 1, messageID: "fine") {
            await delivery.deliver(to: "fine-device", messageID: "fine", sentAt: sentAt) { .accepted }
        }
        // The worker is free: the second push went while the first waits its hour.
        let deadline = ContinuousClock.now + .seconds(10)
        while Self.count(metrics, "sent") < 1, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(Self.count(metrics, "sent") == 1)

        await group.triggerGracefulShutdown()
        try await running.value
        #expect(posts.next() == 2, "posted once")
        #expect(Self.count(metrics, "dropped") == 1)
        #expect(Self.count(metrics, "failed") == 0)
    }

    private static func count(_ metrics: HookMetrics, _ outcome: String) -> Int {
        let series = #"switchboard_push_test_total{outcome="\#(outcome)"} "#
        let line = metrics.exposition.split(separator: "\n").first { $0.hasPrefix(series) }
        return line.flatMap { Int($0.dropFirst(series.count)) } ?? 0
    }
}
