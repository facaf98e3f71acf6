import Synchronization
import SwitchboardData

/// A wall clock that moves on by itself, one millisecond every `readsPerMillisecond` reads
/// from `start`: objects made one after another get times a test can tell in advance,
/// several to a millisecond.
final class SteppingClock: WallClock {
    private let start: Int64
    private let readsPerMillisecond: Int64
    private let reads = Atomic<Int64>(0)

    init(from start: Int64, readsPerMillisecond: Int64) {
        self.start = start
        self.readsPerMillisecond = readsPerMillisecond
    }

    func now() -> Int64 {
        start + reads.add(1, ordering: .relaxed).oldValue / readsPerMillisecond
    }
}
