import Synchronization
import SwitchboardCore
import SwitchboardWire

/// A connection's outbox kept in memory: what the core sends waits in an inbox that a test
/// takes from by predicate, and a test waiting for a command is woken when one that matches
/// comes, not by polling.
final class MemoryOutbox: Outbox {
    private struct Waiter {
        let id: UInt64
        let matches: @Sendable (GenericCommand) -> Bool
        let continuation: CheckedContinuation<GenericCommand?, Never>
    }

    private struct State {
        var inbox: [GenericCommand] = []
        var waiters: [Waiter] = []
        var nextWaiter: UInt64 = 0
        var open = true
    }

    private let state = Mutex(State())
    /// Called once, when the core closes the connection.
    private let closed: @Sendable () -> Void

    init(closed: @escaping @Sendable () -> Void) {
        self.closed = closed
    }

    func send(_ command: GenericCommand) {
        let woken: CheckedContinuation<GenericCommand?, Never>? = state.withLock { state in
            guard state.open else { return nil }
            guard let index = state.waiters.firstIndex(where: { $0.matches(command) }) else {
                state.inbox.append(command)
                return nil
            }
            return state.waiters.remove(at: index).continuation
        }
        woken?.resume(returning: command)
    }

    var backlog: Int { 0 }

    var isOpen: Bool { state.withLock { $0.open } }

    func close() {
        let wasOpen = state.withLock { state in
            defer { state.open = false }
            return state.open
        }
        if wasOpen { closed() }
    }

    /// Takes the first command received that matches, waiting for one; nil when the task is
    /// cancelled first.
    func take(where matches: @escaping @Sendable (GenericCommand) -> Bool) async -> GenericCommand? {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let found: GenericCommand?? = state.withLock { state in
                    if Task.isCancelled { return .some(nil) }
                    if let index = state.inbox.firstIndex(where: matches) { return .some(state.inbox.remove(at: index)) }
                    state.waiters.append(Waiter(id: id, matches: matches, continuation: continuation))
                    return .none
                }
                if let found { continuation.resume(returning: found) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0) }
            }
            waiter?.continuation.resume(returning: nil)
        }
    }

    /// Takes every command received so far that matches.
    func takeAll(where matches: (GenericCommand) -> Bool) -> [GenericCommand] {
        state.withLock { state in
            let taken = state.inbox.filter(matches)
            state.inbox.removeAll(where: matches)
            return taken
        }
    }
}
