import Synchronization

/// When a connection opened and last spoke, whether it ever opened a session, and whether
/// it is being closed; written by its reader, read by the idle sweep.
final class ConnectionActivity: Sendable {
    private struct State {
        var lastSeen: ContinuousClock.Instant
        var loggedIn = false
        var closing = false
    }

    let opened = ContinuousClock.now
    private let state: Mutex<State>

    init() {
        state = Mutex(State(lastSeen: opened))
    }

    func touch() { state.withLock { $0.lastSeen = .now } }
    func loggedIn() { state.withLock { $0.loggedIn = true } }
    var lastSeen: ContinuousClock.Instant { state.withLock { $0.lastSeen } }
    var hasLoggedIn: Bool { state.withLock { $0.loggedIn } }

    /// True the first time only.
    func beginClosing() -> Bool {
        state.withLock { state in
            defer { state.closing = true }
            return !state.closing
        }
    }
}
