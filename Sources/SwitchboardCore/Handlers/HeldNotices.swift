import Synchronization
import SwitchboardWire

/// Notifications a command causes for its own connection, held until its reply is written.
/// LeanCloud's SDKs share one connection between an app's clients and update one cache from
/// both: a notice about a change ahead of the reply to the change overwrote the changer's
/// view of it (`conv/update` with `attr.x`, the SDK's own test suite). Other connections
/// get their notices at once. Only conversation, blacklist and patch commands hold (see
/// `MessagingCore.handle`).
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

    /// Sends what was held, after the reply.
    func release(to connection: Connection) {
        for command in held.withLock({ held in defer { held = nil }; return held ?? [] }) {
            connection.outbox.send(command)
        }
    }
}
