import Synchronization

/// Runs actions at their deadlines for all the budgets running at once, from one task that
/// sleeps until the earliest. A sleeping task per call, cancelled when the call came back in
/// time, was three quarters of what a pass-through plugin cost (8.8 µs against 2.1 µs
/// without it, `switchboard-bench --only hooks`).
///
/// Calls with the same budget reach their deadlines in the order they were scheduled, so each
/// budget keeps its deadlines in a first-in-first-out queue: scheduling appends, and calling
/// an action off only forgets it; its place is dropped once it reaches the front.
final class Deadlines: Sendable {
    static let shared = Deadlines()

    private struct Entry {
        let id: UInt64
        let deadline: ContinuousClock.Instant
    }

    /// One budget's deadlines, earliest first, from `start` on.
    private struct Queue {
        var entries: [Entry] = []
        var start = 0

        var first: Entry? { start < entries.count ? entries[start] : nil }

        mutating func removeFirst() {
            start += 1
            // Compacted when half is behind. Entries called off stay until they reach the
            // front, so a queue holds about a budget's worth of calls.
            if start * 2 >= entries.count {
                entries.removeFirst(start)
                start = 0
            }
        }
    }

    private struct State {
        var nextID: UInt64 = 0
        /// The actions not yet run nor called off.
        var actions: [UInt64: @Sendable () -> Void] = [:]
        var queues: [Duration: Queue] = [:]
        /// When the sleeping task wakes next, and which task that is: one scheduled for a
        /// later time gives way to a new one when an earlier deadline comes.
        var wake: (at: ContinuousClock.Instant, sleeper: UInt64)?
        var sleepers: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Runs `action` once `budget` has passed, unless called off first; returns what
    /// `callOff` takes.
    func schedule(after budget: Duration, _ action: @escaping @Sendable () -> Void) -> UInt64 {
        let (id, deadline, sleeper) = state.withLock { state -> (UInt64, ContinuousClock.Instant, UInt64?) in
            // Read under the lock, so that each budget's queue is in the order of its deadlines.
            let deadline = ContinuousClock.now + budget
            state.nextID += 1
            state.actions[state.nextID] = action
            state.queues[budget, default: Queue()].entries.append(Entry(id: state.nextID, deadline: deadline))
            if let wake = state.wake, wake.at <= deadline { return (state.nextID, deadline, nil) }
            state.sleepers += 1
            state.wake = (deadline, state.sleepers)
            return (state.nextID, deadline, state.sleepers)
        }
        if let sleeper { Task { await self.sleep(until: deadline, as: sleeper) } }
        return id
    }

    /// Forgets an action that has not run yet.
    func callOff(_ id: UInt64) {
        _ = state.withLock { $0.actions.removeValue(forKey: id) }
    }

    private func sleep(until first: ContinuousClock.Instant, as sleeper: UInt64) async {
        var deadline = first
        while true {
            try? await Task.sleep(until: deadline, clock: .continuous)
            let (due, next) = state.withLock { state -> ([@Sendable () -> Void], ContinuousClock.Instant?) in
                // A task that was given way to has nothing left to do.
                guard state.wake?.sleeper == sleeper else { return ([], nil) }
                let (due, next) = Self.takeDue(&state, at: .now)
                state.wake = next.map { ($0, sleeper) }
                return (due, next)
            }
            for action in due { action() }
            guard let next else { return }
            deadline = next
        }
    }

    /// Removes the actions due at `now` and those called off ahead of the next one; returns
    /// the due ones in the order of their deadlines and the next deadline still waiting.
    private static func takeDue(_ state: inout State, at now: ContinuousClock.Instant) -> ([@Sendable () -> Void], ContinuousClock.Instant?) {
        var due: [(deadline: ContinuousClock.Instant, action: @Sendable () -> Void)] = []
        var next: ContinuousClock.Instant?
        for budget in Array(state.queues.keys) {
            var queue = state.queues.removeValue(forKey: budget)!
            while let entry = queue.first {
                guard let action = state.actions[entry.id] else {
                    queue.removeFirst()
                    continue
                }
                guard entry.deadline <= now else {
                    next = min(next ?? entry.deadline, entry.deadline)
                    break
                }
                state.actions[entry.id] = nil
                due.append((entry.deadline, action))
                queue.removeFirst()
            }
            if queue.first != nil { state.queues[budget] = queue }
        }
        return (due.sorted { $0.deadline < $1.deadline }.map(\.action), next)
    }
}
