import Synchronization

/// A value that tests wait on: a stand-in changes it as things happen (a request comes, a
/// push is decided) and each change wakes the waiters it now satisfies, so a test waits for
/// the event, not for a polling interval. A wait gives up after its time-out.
final class WatchedValue<Value: Sendable>: Sendable {
    private struct Waiter {
        let id: UInt64
        /// Takes what the waiter waits for from the value when it is there, and answers how
        /// to wake the waiter with it.
        let take: @Sendable (inout Value) -> (@Sendable () -> Void)?
        let cancel: @Sendable () -> Void
    }

    private struct State {
        var value: Value
        var waiters: [Waiter] = []
        var nextWaiter: UInt64 = 0
    }

    private let state: Mutex<State>

    init(_ value: Value) {
        state = Mutex(State(value: value))
    }

    var value: Value { state.withLock { $0.value } }

    /// Changes the value, then wakes the waiters it satisfies, in the order they came.
    @discardableResult
    func update<Result>(_ change: (inout Value) -> Result) -> Result {
        let (result, wakes) = state.withLock { state in
            let result = change(&state.value)
            var wakes: [@Sendable () -> Void] = []
            var index = 0
            while index < state.waiters.count {
                let take = state.waiters[index].take
                if let wake = take(&state.value) {
                    wakes.append(wake)
                    state.waiters.remove(at: index)
                } else {
                    index += 1
                }
            }
            return (result, wakes)
        }
        for wake in wakes { wake() }
        return result
    }

    /// What `take` takes from the value as soon as it can (it may change the value, as taking
    /// the first of a list does), or nil after `timeout`.
    func wait<Taken: Sendable>(timeout: Duration, take: @escaping @Sendable (inout Value) -> Taken?) async -> Taken? {
        await withTaskGroup(of: Taken?.self) { group in
            group.addTask { await self.next(take) }
            group.addTask {
                // The deadline of a wait that fails; a wait that succeeds ends it at once.
                try? await Task.sleep(for: timeout)
                return nil
            }
            // Both children are awaited: what the waiter took is kept even when the deadline
            // came at the same moment.
            var taken: Taken?
            for await result in group {
                group.cancelAll()
                if taken == nil { taken = result }
            }
            return taken
        }
    }

    /// Waits, without a time-out, until `take` takes something; nil when cancelled first.
    private func next<Taken: Sendable>(_ take: @escaping @Sendable (inout Value) -> Taken?) async -> Taken? {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Taken?, Never>) in
                let waiter = Waiter(
                    id: id,
                    take: { (value: inout Value) -> (@Sendable () -> Void)? in
                        guard let taken = take(&value) else { return nil }
                        return { continuation.resume(returning: taken) }
                    },
                    cancel: { continuation.resume(returning: nil) }
                )
                let wakeNow: (@Sendable () -> Void)? = state.withLock { state in
                    if Task.isCancelled { return waiter.cancel }
                    if let wake = waiter.take(&state.value) { return wake }
                    state.waiters.append(waiter)
                    return nil
                }
                wakeNow?()
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0) }
            }
            waiter?.cancel()
        }
    }
}
