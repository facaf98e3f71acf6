import Synchronization

/// Will messages: one per client (the last set wins), delivered to its conversation when
/// the connection that set it drops without `session/close`. Kept in memory; with other
/// nodes, in the database too (`NodeLink.keepWill`), so that they send it if this node dies.
final class WillMessages: Sendable {
    struct Will: Sendable {
        var message: Message
        var conversation: Conversation
        var recipients: [String]
        var connectionID: UInt64
    }

    private let wills = Mutex<[String: Will]>([:])

    func set(_ will: Will, for clientID: String) {
        wills.withLock { $0[clientID] = will }
    }

    /// A clean logout: the will is not sent. True if there was one.
    func discard(for clientID: String) -> Bool {
        wills.withLock { $0.removeValue(forKey: clientID) } != nil
    }

    /// Takes `clientID`'s will if the connection that set it is the one that dropped.
    func take(for clientID: String, droppedConnection connectionID: UInt64) -> Will? {
        wills.withLock { wills in
            guard wills[clientID]?.connectionID == connectionID else { return nil }
            return wills.removeValue(forKey: clientID)
        }
    }
}
