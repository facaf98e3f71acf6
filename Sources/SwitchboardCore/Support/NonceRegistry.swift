import Synchronization

/// The nonces of signatures accepted lately. A signature is good for its whole validity
/// window, so without this anyone who saw one (in a log, in a proxy) could open sessions or
/// change members with it again. Only verified signatures are recorded, so the set grows
/// with what the app's signing server hands out, never with forgeries.
final class NonceRegistry: Sendable {
    private let seen = Mutex<(expiries: [String: Int64], nextSweep: Int64)>(([:], 0))
    /// Seconds between sweeps of expired nonces.
    private static let sweepInterval: Int64 = 60

    /// Records `nonce` as used until `expiry` (seconds, when its signature goes stale);
    /// false if it is already recorded and not expired at `now`.
    func use(_ nonce: String, until expiry: Int64, now: Int64) -> Bool {
        seen.withLock { state in
            if now >= state.nextSweep {
                state.expiries = state.expiries.filter { $0.value > now }
                state.nextSweep = now + Self.sweepInterval
            }
            if let recorded = state.expiries[nonce], recorded > now { return false }
            state.expiries[nonce] = expiry
            return true
        }
    }
}
