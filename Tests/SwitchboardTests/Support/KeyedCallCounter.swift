import Synchronization

/// Counts calls by key from any thread: a stand-in's tries per device token.
final class KeyedCallCounter: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    /// This call's number for `key`: 1 for the first.
    func next(_ key: String) -> Int {
        counts.withLock { counts in
            counts[key, default: 0] += 1
            return counts[key]!
        }
    }
}
