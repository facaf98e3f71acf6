import ServiceLifecycle
import Synchronization

/// Pushes waiting to be tried again, outside the push queue: a wait of minutes (APNs asks for
/// long ones after a 5xx) must not hold one of the queue's workers, or a few busy answers
/// would stop every push behind them. Each wait is a sleeping task, at most `limit` at once.
///
/// The server's shutdown ends the waits at once: each is then `dropped` (counted by the
/// caller), there and then, so the counts are whole when the server has stopped. The tasks
/// learn of the shutdown from the push queue's `WorkQueueService`, whose graceful-shutdown
/// context a push job runs in and the tasks made from it inherit (ServiceLifecycle keeps it
/// in a task-local); outside a service group (tests of a gateway alone) a wait just ends.
final class PushRetryWaits: Sendable {
    let limit: Int
    private let waiting = Mutex(0)

    init(limit: Int) {
        self.limit = max(limit, 1)
    }

    /// Runs `retry` after `wait`, or `dropped` if the server shuts down first; false, with
    /// nothing done, when `limit` pushes wait already.
    func schedule(after wait: Duration, retry: @escaping @Sendable () async -> Void, dropped: @escaping @Sendable () -> Void) -> Bool {
        let admitted = waiting.withLock { waiting in
            guard waiting < limit else { return false }
            waiting += 1
            return true
        }
        guard admitted else { return false }
        let outcome = Outcome()
        Task {
            defer { waiting.withLock { $0 -= 1 } }
            let waited = await withGracefulShutdownHandler {
                (try? await cancelWhenGracefulShutdown { try await Task.sleep(for: wait) }) != nil
            } onGracefulShutdown: {
                // Runs inside the shutdown's trigger (or at once when it came before).
                if outcome.settle() { dropped() }
            }
            guard waited, outcome.settle() else { return }
            await retry()
        }
        return true
    }

    /// Whichever of "time is up" and "shutting down" comes first decides.
    private final class Outcome: Sendable {
        private let settled = Mutex(false)

        func settle() -> Bool {
            settled.withLock { settled in
                defer { settled = true }
                return !settled
            }
        }
    }
}
