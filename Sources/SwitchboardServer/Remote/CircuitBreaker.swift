import Synchronization

/// Fails calls to an engine fast while it is down, so that every message does not wait a
/// full budget for it, and lets one call through after each cooldown to see if it is back.
final class CircuitBreaker: Sendable {
    enum Change { case opened, closed }

    private struct State {
        var failuresInARow = 0
        /// Set while open: calls are refused until then.
        var openUntil: ContinuousClock.Instant?
        /// Open, and one call is finding out whether the engine is back.
        var probing = false
    }

    let threshold: Int
    let cooldown: Duration
    private let state = Mutex(State())

    init(threshold: Int, cooldown: Duration) {
        self.threshold = max(threshold, 1)
        self.cooldown = cooldown
    }

    /// Whether a call may go now.
    func admit() -> Bool {
        state.withLock { state in
            guard let openUntil = state.openUntil else { return true }
            guard ContinuousClock.now >= openUntil, !state.probing else { return false }
            state.probing = true
            return true
        }
    }

    /// Records how an admitted call went; says when that opened or closed the breaker.
    func record(success: Bool) -> Change? {
        state.withLock { state in
            if success {
                state.failuresInARow = 0
                state.probing = false
                defer { state.openUntil = nil }
                return state.openUntil == nil ? nil : .closed
            }
            state.failuresInARow += 1
            if state.probing {
                state.probing = false
                state.openUntil = ContinuousClock.now + cooldown
                return nil
            }
            guard state.openUntil == nil, state.failuresInARow >= threshold else { return nil }
            state.openUntil = ContinuousClock.now + cooldown
            return .opened
        }
    }
}
