import Synchronization

/// When a connection last spoke and whether it ever opened a session; written by its
/// reader, read by its watchdog.
final class ConnectionActivity: Sendable {
    private let state = Mutex<(lastSeen: ContinuousClock.Instant, loggedIn: Bool)>((ContinuousClock.now, false))

    func touch() { state.withLock { $0.lastSeen = .now } }
    func loggedIn() { state.withLock { $0.loggedIn = true } }
    var lastSeen: ContinuousClock.Instant { state.withLock { $0.lastSeen } }
    var hasLoggedIn: Bool { state.withLock { $0.loggedIn } }
}
