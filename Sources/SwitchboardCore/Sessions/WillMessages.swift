import Synchronization
import SwitchboardWire

/// Will messages: one per client (the last set wins), delivered to its conversation when
/// the connection that set it drops without `session/close`. Kept in memory and, through
/// `link`, where other nodes find them (`NodeLink.keepWill`), so that they send one if this
/// node dies.
final class WillMessages: Sendable {
    struct Will: Sendable {
        var message: Message
        var conversation: Conversation
        var recipients: [String]
        var connectionID: UInt64
    }

    private let wills = Mutex<[String: Will]>([:])
    private let link: any NodeLink

    init(link: any NodeLink) {
        self.link = link
    }

    func set(_ will: Will, for clientID: String) async {
        wills.withLock { $0[clientID] = will }
        let command = SharedCommand(Delivery.directCommand(for: will.message, conversation: will.conversation, offline: false, transient: false))
        await link.keepWill(Delivery.relayed(will.message, command, to: will.recipients, conversation: will.conversation), of: clientID)
    }

    /// The session ended on purpose (a logout, a kick, another device's login with its tag):
    /// no node sends the will. With `connectionID`, only a will set on that connection.
    func withdraw(for clientID: String, setOn connectionID: UInt64? = nil) async {
        let withdrawn = wills.withLock { wills in
            guard let will = wills[clientID], connectionID == nil || will.connectionID == connectionID else { return false }
            wills[clientID] = nil
            return true
        }
        if withdrawn { await link.dropWill(of: clientID) }
    }

    /// Takes `clientID`'s will if the connection that set it is the one that dropped; call
    /// `delivered(for:)` once it is sent.
    func take(for clientID: String, droppedConnection connectionID: UInt64) -> Will? {
        wills.withLock { wills in
            guard wills[clientID]?.connectionID == connectionID else { return nil }
            return wills.removeValue(forKey: clientID)
        }
    }

    /// A will taken was sent: the other nodes no longer keep it (had this node died before,
    /// they would have sent it).
    func delivered(for clientID: String) async {
        await link.dropWill(of: clientID)
    }
}
