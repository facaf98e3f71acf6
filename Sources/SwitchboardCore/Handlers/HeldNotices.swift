import Synchronization
import SwitchboardWire

/// Notifications a command causes for its own connection, held until a moment after its
/// reply is written. LeanCloud's SDKs share one connection between an app's clients: a
/// notice about a change ahead of the reply to the change overwrote the changer's view of it
/// (`conv/update` with `attr.x`), and one read in the same socket read as the reply reaches
/// the other client before the changer's code has seen its reply (the SDK suite's
/// `getConversation` cache test). On LeanCloud notices take a path of their own and come
/// later; so here, `separation` later. Other connections get their notices at once. Only
/// conversation, blacklist and patch commands hold (see `MessagingCore.handle`).
final class HeldNotices: Sendable {
    /// The command being handled, in the task that handles it.
    @TaskLocal static var current: HeldNotices?

    let connectionID: UInt64
    /// Nil once released: later notices (from work the command left running) go out at once.
    private let held = Mutex<[GenericCommand]?>([])

    init(connectionID: UInt64) {
        self.connectionID = connectionID
    }

    /// Keeps `command` for later if it is for this command's connection and the reply is
    /// not out yet; false when it should be sent now.
    func hold(_ command: GenericCommand, for connection: Connection) -> Bool {
        guard connection.id == connectionID else { return false }
        return held.withLock { held in
            guard held != nil else { return false }
            held?.append(command)
            return true
        }
    }

    /// Sends a notice now, or after the reply of the command being handled when it is for
    /// that command's connection.
    static func send(_ command: GenericCommand, to connection: Connection) {
        if current?.hold(command, for: connection) != true {
            connection.outbox.send(command)
        }
    }

    /// How long after the reply held notices follow: long enough for the SDK to read the
    /// reply alone and act on it.
    static let separation = Duration.milliseconds(50)

    /// How long a reply waits behind notices released early for it. In the same socket
    /// read, Node's `ws` emits both frames in one task, and the SDK, which looks up the
    /// conversation before it applies a notice, applied the reply first (its own suite's
    /// `join/quit` and `add/remove` kept the member the notice removed or added); a frame of
    /// its own lets the notice be applied first.
    static let gapBeforeReply = Duration.milliseconds(5)

    /// Sends what was held `separation` after the reply, or before the connection's next
    /// reply if that comes sooner; notices caused until then (by work the command left
    /// running) join them, so none overtakes another.
    func release(to connection: Connection, awaiting: NoticesAwaitingRelease) {
        let nothingHeld = held.withLock { held in
            guard held?.isEmpty != false else { return false }
            held = nil
            return true
        }
        guard !nothingHeld else { return }
        awaiting.add(self)
        Task {
            try? await Task.sleep(for: Self.separation)
            sendNow(to: connection)
            awaiting.remove(self)
        }
    }

    /// Sends what is held, at most once. Under the lock, so a reply that finds the list
    /// taken knows its notices are already in the outbox ahead of it.
    func sendNow(to connection: Connection) {
        held.withLock { held in
            for command in held ?? [] {
                connection.outbox.send(command)
            }
            held = nil
        }
    }
}
