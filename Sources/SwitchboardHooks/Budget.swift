import Synchronization

/// Runs work with a time limit. On time-out the caller goes on at once; the work is
/// cancelled and left to finish on its own, so a handler that ignores cancellation
/// cannot hold up the request. Scripts' storage calls are bounded by it too.
public enum Budget {

    /// The work's value, or `HookTimeout` once `limit` has passed.
    public static func run<Value: Sendable>(
        _ limit: Duration, _ work: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let race = Race(continuation)
            // The deadline is set first so that a worker finishing at once always finds it to call off.
            race.hold(deadline: Deadlines.shared.schedule(after: limit) { race.finish(.failure(HookTimeout())) })
            race.hold(worker: Task {
                do { race.finish(.success(try await work())) } catch { race.finish(.failure(error)) }
            })
        }
    }

    /// Whichever of the worker and the deadline comes first resumes the caller and calls off
    /// the other.
    private final class Race<Value: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Value, any Error>?
            var worker: Task<Void, Never>?
            var deadline: UInt64?
        }

        private let state: Mutex<State>

        init(_ continuation: CheckedContinuation<Value, any Error>) {
            state = Mutex(State(continuation: continuation))
        }

        func hold(deadline: UInt64) {
            state.withLock { $0.deadline = deadline }
        }

        /// A worker that comes after the deadline has passed is cancelled at once.
        func hold(worker: Task<Void, Never>) {
            let finished = state.withLock { state in
                state.worker = worker
                return state.continuation == nil
            }
            if finished { worker.cancel() }
        }

        func finish(_ result: Result<Value, any Error>) {
            let (continuation, worker, deadline) = state.withLock { state in
                defer { state.continuation = nil }
                return (state.continuation, state.worker, state.deadline)
            }
            guard let continuation else { return }
            continuation.resume(with: result)
            worker?.cancel()
            if let deadline { Deadlines.shared.callOff(deadline) }
        }
    }
}
