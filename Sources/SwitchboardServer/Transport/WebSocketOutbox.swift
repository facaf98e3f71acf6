import Synchronization
import SwitchboardCore
import SwitchboardWire

/// The core's `Outbox` for one WebSocket: commands queue here and the connection's writer
/// task sends them in order.
///
/// The queue is bounded. A client that stops reading fills it and is then disconnected
/// (`onOverflow`) rather than let memory grow: what it missed is still queued in the store
/// and is delivered again when it reconnects.
final class WebSocketOutbox: Outbox {
    enum Item: Sendable {
        case command(GenericCommand)
        case close
    }

    let items: AsyncStream<Item>
    private let continuation: AsyncStream<Item>.Continuation
    private let queued = Atomic<Int>(0)
    private let overflowed = Atomic<Bool>(false)
    private let onOverflow: @Sendable () -> Void

    /// - Parameters:
    ///   - capacity: commands that may wait to be written.
    ///   - onOverflow: called once, when a command finds the queue full.
    init(capacity: Int, onOverflow: @escaping @Sendable () -> Void) {
        (items, continuation) = AsyncStream.makeStream(of: Item.self, bufferingPolicy: .bufferingOldest(capacity))
        self.onOverflow = onOverflow
    }

    func send(_ command: GenericCommand) {
        queued.add(1, ordering: .relaxed)
        if case .dropped = continuation.yield(.command(command)) {
            continuation.finish()
            if !overflowed.exchange(true, ordering: .relaxed) { onOverflow() }
        }
    }

    var backlog: Int { queued.load(ordering: .relaxed) }

    /// The writer sent one command.
    func written() {
        queued.subtract(1, ordering: .relaxed)
    }

    func close() {
        continuation.yield(.close)
        continuation.finish()
    }
}
