import Synchronization
import Testing

@testable import SwitchboardHooks

/// The one task that runs every budget's deadline.
@Suite(.storeBlind, .timeLimit(.minutes(1))) struct DeadlinesTests {
    private let deadlines = Deadlines()
    /// The names of the actions, as they ran.
    private let ran: AsyncStream<String>
    private let report: AsyncStream<String>.Continuation

    init() {
        (ran, report) = AsyncStream.makeStream(of: String.self)
    }

    private func schedule(_ name: String, after budget: Duration) -> UInt64 {
        deadlines.schedule(after: budget) { [report] in report.yield(name) }
    }

    @Test func anActionRunsOnceItsBudgetHasPassed() async {
        let start = ContinuousClock.now
        _ = schedule("first", after: .milliseconds(50))
        var order = ran.makeAsyncIterator()
        #expect(await order.next() == "first")
        #expect(ContinuousClock.now - start >= .milliseconds(50))
    }

    @Test func anActionCalledOffNeverRuns() async {
        // Long enough that calling off comes first even on a loaded machine.
        let calledOff = schedule("called off", after: .milliseconds(200))
        _ = schedule("kept", after: .milliseconds(200))
        deadlines.callOff(calledOff)
        // Deadlines of one budget run in order: had the first run, it would come first.
        var order = ran.makeAsyncIterator()
        #expect(await order.next() == "kept")
    }

    @Test func anEarlierDeadlineIsNotHeldUpByALaterOne() async {
        let late = schedule("late", after: .seconds(60))
        _ = schedule("early", after: .milliseconds(20))
        // Gives up well before the late one would have woken the task.
        let first = await withTaskGroup(of: String?.self) { group in
            group.addTask { [ran] in
                var order = ran.makeAsyncIterator()
                return await order.next()
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(20))
                return nil
            }
            defer { group.cancelAll() }
            return await group.next() ?? nil
        }
        deadlines.callOff(late)
        #expect(first == "early")
    }

    @Test func manyAtOnceEachRunOrAreCalledOff() async {
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<1000 {
                group.addTask {
                    let id = schedule("one of many", after: .milliseconds(200))
                    if index.isMultiple(of: 2) { deadlines.callOff(id) }
                }
            }
        }
        _ = schedule("last", after: .milliseconds(400))
        // Actions due together run in the order of their deadlines.
        var ran = 0
        for await name in self.ran {
            if name == "last" { break }
            ran += 1
        }
        #expect(ran == 500)
    }
}
