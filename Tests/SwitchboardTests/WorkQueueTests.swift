import Foundation
import Synchronization
import SwitchboardCore
import SwitchboardHooks
import Testing

/// The bounded queue behind the work that follows replies.
@Suite(.storeBlind) struct WorkQueueTests {
    private final class Tally: Sendable {
        let done = Mutex(0)
        var count: Int { done.withLock { $0 } }
        func add() { done.withLock { $0 += 1 } }
    }

    private func makeQueue(_ metrics: HookMetrics, capacity: Int, workers: Int = 1, whenFull: WorkQueue.WhenFull) -> WorkQueue {
        WorkQueue(name: "test", capacity: capacity, workers: workers, whenFull: whenFull, metrics: .init(name: "test", in: metrics))
    }

    @Test func aFullQueueMakesTheSubmitterWaitAndLosesNothing() async {
        let metrics = HookMetrics.inOwnRegistry()
        let queue = makeQueue(metrics, capacity: 2, whenFull: .wait)
        let tally = Tally()
        let gate = Mutex(false)
        let workers = Task { await queue.run() }
        // The worker holds the first job until the gate opens; two more fill the queue.
        await queue.submit {
            while !gate.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(2)) }
            tally.add()
        }
        while queue.depth > 0 { try? await Task.sleep(for: .milliseconds(1)) }
        for _ in 0..<2 { await queue.submit { tally.add() } }
        let blocked = Task { await queue.submit { tally.add() } }
        try? await Task.sleep(for: .milliseconds(100))
        #expect(queue.depth == 2)
        gate.withLock { $0 = true }
        #expect(await blocked.value)
        queue.close()
        await workers.value
        #expect(tally.count == 4)
        #expect(metrics.exposition.contains(#"switchboard_work_submits_waited_total{queue="test"} 1"#))
    }

    @Test func aDroppingQueueRefusesWhatDoesNotFitAndCountsIt() async {
        let metrics = HookMetrics.inOwnRegistry()
        let queue = makeQueue(metrics, capacity: 3, whenFull: .drop)
        var accepted = 0
        for _ in 0..<10 where await queue.submit({}) { accepted += 1 }
        #expect(accepted == 3)
        #expect(metrics.exposition.contains(#"switchboard_work_jobs_dropped_total{queue="test"} 7"#))
        #expect(metrics.exposition.contains(#"switchboard_work_queue_depth{queue="test"} 3"#))
    }

    @Test func closingRunsWhatIsQueuedThenEndsTheWorkers() async {
        let queue = makeQueue(HookMetrics.inOwnRegistry(), capacity: 100, workers: 4, whenFull: .wait)
        let tally = Tally()
        for _ in 0..<50 { await queue.submit { try? await Task.sleep(for: .milliseconds(1)); tally.add() } }
        queue.close()
        #expect(await !queue.submit { tally.add() })
        await queue.run()
        #expect(tally.count == 50)
    }

    @Test func abandoningDropsWhatIsLeftAndCountsIt() async {
        let metrics = HookMetrics.inOwnRegistry()
        let queue = makeQueue(metrics, capacity: 10, whenFull: .wait)
        for _ in 0..<6 { await queue.submit {} }
        queue.close()
        #expect(queue.abandon() == 6)
        await queue.run()
        #expect(metrics.exposition.contains(#"switchboard_work_jobs_dropped_total{queue="test"} 6"#))
    }
}
