import Synchronization
import SwitchboardData

/// The core's time: the time of day from its `WallClock`, and message timestamps in
/// milliseconds that never repeat and never go backwards, so history pages by timestamp are
/// unambiguous even for messages sent in the same millisecond or across a wall-clock step back.
public final class ServerClock: Sendable {
    public let wall: any WallClock
    private let last = Mutex<Int64>(0)

    public init(wall: any WallClock = SystemWallClock()) {
        self.wall = wall
    }

    /// Milliseconds since 1970-01-01 UTC, as the wall clock reads.
    public func now() -> Int64 {
        wall.now()
    }

    public func next() -> Int64 {
        let now = wall.now()
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
