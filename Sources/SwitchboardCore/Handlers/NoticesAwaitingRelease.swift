import Synchronization

/// Held notices whose command has replied, by connection, until they go out. A connection's
/// next reply sends them first: a notice must never follow the reply to a later command (the
/// SDK applied a quit's `left` after the join that came next and lost the member).
final class NoticesAwaitingRelease: Sendable {
    private let waiting = Mutex<[UInt64: [HeldNotices]]>([:])

    func add(_ notices: HeldNotices) {
        waiting.withLock { $0[notices.connectionID, default: []].append(notices) }
    }

    func remove(_ notices: HeldNotices) {
        waiting.withLock { waiting in
            waiting[notices.connectionID]?.removeAll { $0 === notices }
            if waiting[notices.connectionID]?.isEmpty == true {
                waiting[notices.connectionID] = nil
            }
        }
    }

    /// Call before writing a reply on `connection`; true when notices went out, and the
    /// reply should then wait `HeldNotices.gapBeforeReply`.
    func sendBeforeReply(on connection: Connection) -> Bool {
        let released = waiting.withLock { $0.removeValue(forKey: connection.id) } ?? []
        for notices in released {
            notices.sendNow(to: connection)
        }
        return !released.isEmpty
    }
}
