import Foundation
import Synchronization

/// Hands out message timestamps in milliseconds that never repeat and never go backwards,
/// so history pages by timestamp are unambiguous even for messages sent in the same
/// millisecond or across a wall-clock step back.
public final class ServerClock: Sendable {
    private let last = Mutex<Int64>(0)

    public init() {}

    public static func wallMilliseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }

    public func next() -> Int64 {
        let now = Self.wallMilliseconds()
        return last.withLock { last in
            last = max(now, last + 1)
            return last
        }
    }

    /// Makes sure later timestamps follow those already stored, e.g. after a restart.
    public func advance(past timestamp: Int64) {
        last.withLock { $0 = max($0, timestamp) }
    }
}
