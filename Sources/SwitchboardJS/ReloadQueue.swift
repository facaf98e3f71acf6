import Synchronization

/// Runs async work one piece at a time, in the order it was asked for.
final class ReloadQueue: Sendable {
    private let tail = Mutex<Task<Void, Never>?>(nil)

    func run<Value: Sendable>(_ work: @escaping @Sendable () async -> Value) async -> Value {
        let task: Task<Value, Never> = tail.withLock { tail in
            let previous = tail
            let next = Task {
                await previous?.value
                return await work()
            }
            tail = Task { _ = await next.value }
            return next
        }
        return await task.value
    }
}
