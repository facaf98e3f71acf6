import Synchronization
import SwitchboardWire

/// What one connection received and the core has not handled yet, worked through in order
/// by one task at a time.
///
/// A task keeps every slab of async stack it ever grew until it ends. One task serving a
/// connection for its whole life held about 23 KB of them, mostly from the deepest command
/// it had handled (heaptrack, 10,000 logged-in clients). Here the task waits for more while
/// the connection is busy, and is let go by `releaseIdleWorker` (the gateway's sweep, once a
/// second) when it finds nothing to do: an idle connection holds no task. A task started
/// afresh for every command cost about a fifth more CPU a message when each was acked.
///
/// Bounded: once `highWater` items are unfinished, the connection's handler stops reading
/// its socket (`pauseReadingIfFull`), and `resumeReading` is called when they are down to
/// `lowWater`. A message is finished here once the core has admitted it to the connection's
/// send sequence, which holds at most as many more (`SendSequence.limit`).
final class FrameQueue: Sendable {
    enum Item: Sendable {
        case frame(Frame)
        /// The connection closed; nothing follows.
        case end
    }

    static let highWater = 16
    static let lowWater = 4

    private enum Worker {
        case none
        case running
        /// Waiting for an item; resumed with false to end.
        case waiting(UnsafeContinuation<Bool, Never>)
        case ended
    }

    private struct State {
        var items: [Item] = []
        /// Pushed and not yet handled, those in the worker's hands included.
        var unfinished = 0
        var worker = Worker.none
        var readingPaused = false
    }

    // Each continuation is taken out of `state` under its lock before it is resumed, so it is
    // resumed exactly once: what the checked kind would verify at an allocation a wake-up.
    private let state = Mutex(State())
    private let work: @Sendable (Item) async -> Void
    private let resumeReading: @Sendable () -> Void

    init(work: @escaping @Sendable (Item) async -> Void, resumeReading: @escaping @Sendable () -> Void) {
        self.work = work
        self.resumeReading = resumeReading
    }

    func push(_ item: Item) {
        let worker = state.withLock { state in
            state.items.append(item)
            state.unfinished += 1
            let worker = state.worker
            if case .ended = worker { return worker }
            state.worker = .running
            return worker
        }
        switch worker {
        case .none: Task { await self.run() }
        case .waiting(let continuation): continuation.resume(returning: true)
        case .running, .ended: break
        }
    }

    /// True, and reading counts as paused, when `highWater` items are unfinished.
    func pauseReadingIfFull() -> Bool {
        state.withLock { state in
            guard state.unfinished >= Self.highWater else { return false }
            state.readingPaused = true
            return true
        }
    }

    /// Ends the worker if it is waiting with nothing to do; the next item starts another.
    func releaseIdleWorker() {
        let waiting = state.withLock { state -> UnsafeContinuation<Bool, Never>? in
            guard case .waiting(let continuation) = state.worker else { return nil }
            state.worker = .none
            return continuation
        }
        waiting?.resume(returning: false)
    }

    private func run() async {
        repeat {
            for item in takeItems() {
                await work(item)
                if case .end = item {
                    state.withLock { $0.worker = .ended }
                    return
                }
                let resume = state.withLock { state in
                    state.unfinished -= 1
                    guard state.readingPaused, state.unfinished <= Self.lowWater else { return false }
                    state.readingPaused = false
                    return true
                }
                if resume { resumeReading() }
            }
        } while await moreToDo()
    }

    private func takeItems() -> [Item] {
        state.withLock { state in
            let items = state.items
            state.items = []
            return items
        }
    }

    /// Waits until an item comes (true) or the worker is released (false).
    private func moreToDo() async -> Bool {
        await withUnsafeContinuation { continuation in
            let ready = state.withLock { state in
                guard state.items.isEmpty else { return true }
                state.worker = .waiting(continuation)
                return false
            }
            if ready { continuation.resume(returning: true) }
        }
    }
}
