import Synchronization
import SwitchboardData

/// A wall clock a test moves by hand: it stands still until told to move, so a window of
/// minutes (an edit window, a silence, a conversation's TTL) is crossed without waiting.
final class TestClock: WallClock {
    /// 2026-01-02T03:04:05.678Z.
    static let moment: Int64 = 1_767_323_045_678

    private let time: Mutex<Int64>

    init(at time: Int64 = TestClock.moment) {
        self.time = Mutex(time)
    }

    func now() -> Int64 {
        time.withLock { $0 }
    }

    func advance(by duration: Duration) {
        time.withLock { $0 += Int64(duration / .milliseconds(1)) }
    }
}
