import Synchronization
import SwitchboardCore
import SwitchboardWire

/// A connection's outbox kept in memory: what the core sends waits in `inbox`, which a test
/// takes from by predicate, woken when a command that matches comes, not by polling.
final class MemoryOutbox: Outbox {
    let inbox = WatchedValue<[GenericCommand]>([])
    private let open = Mutex(true)
    /// Called once, when the core closes the connection.
    private let closed: @Sendable () -> Void

    init(closed: @escaping @Sendable () -> Void) {
        self.closed = closed
    }

    func send(_ command: GenericCommand) {
        // Under `open`, so nothing lands once `close` has returned.
        open.withLock { open in
            if open { inbox.update { $0.append(command) } }
        }
    }

    var backlog: Int { 0 }

    var isOpen: Bool { open.withLock { $0 } }

    func close() {
        let wasOpen = open.withLock { open in
            defer { open = false }
            return open
        }
        if wasOpen { closed() }
    }
}
