import Synchronization

/// Runs work with a time limit. On time-out the caller goes on at once; the work is
/// cancelled and left to finish on its own, so a handler that ignores cancellation
/// cannot hold up the request.
enum Budget {

    static func run<Value: Sendable>(
        _ limit: Duration, _ work: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let race = Race(continuation)
            // The timer starts first so that a worker finishing at once always finds it to cancel.
            race.timer = Task {
                guard (try? await Task.sleep(for: limit)) != nil else { return }
                race.finish(.failure(HookTimeout()))
            }
            race.worker = Task {
                do { race.finish(.success(try await work())) } catch { race.finish(.failure(error)) }
            }
        }
    }

    /// Whichever of the worker and the timer finishes first resumes the caller and cancels
    /// the other.
    private final class Race<Value: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Value, any Error>?
            var worker: Task<Void, Never>?
            var timer: Task<Void, Never>?
        }

        private let state: Mutex<State>

        init(_ continuation: CheckedContinuation<Value, any Error>) {
            state = Mutex(State(continuation: continuation))
        }

        var worker: Task<Void, Never>? {
            get { state.withLock { $0.worker } }
            set { state.withLock { $0.worker = newValue } }
        }

        var timer: Task<Void, Never>? {
            get { state.withLock { $0.timer } }
            set { state.withLock { $0.timer = newValue } }
        }

        func finish(_ result: Result<Value, any Error>) {
            let (continuation, others) = state.withLock { state in
                defer { state.continuation = nil }
                return (state.continuation, [state.worker, state.timer])
            }
            guard let continuation else { return }
            continuation.resume(with: result)
            for task in others { task?.cancel() }
        }
    }
}
