import Foundation

/// What one node hands the others for the clients connected to them: the command as the
/// wire carries it (not yet addressed to a client), and whom it is for. Each node sends it
/// to the sessions it holds; one that holds none of them does nothing.
public enum Relay: Sendable, Codable, Equatable {
    /// A message for `recipients`' sessions (see `Delivery.deliver`).
    case delivery(RelayedDelivery)
    /// A notification for every session of `recipients`: notices, receipts, patches.
    case notice(command: Data, recipients: [String])
    /// `clientID` logged in with `tag` elsewhere, `loginOrder`th among logins (nil: not
    /// known): its sessions here with that tag that logged in before end (4111). Two logins
    /// at once on two nodes each hear of the other; by the order, one of them stays.
    case tagTaken(clientID: String, tag: String, loginOrder: Int64?)
    /// The app's server kicked `clientID` (4115), for `reason`.
    case kick(clientID: String, reason: String?)
    /// A push for the Android SDK's own connection (`data`, not yet addressed), to the
    /// connections that carry `installations`.
    case pushData(command: Data, installations: [String])
}

/// A message on its way to sessions on other nodes.
public struct RelayedDelivery: Sendable, Codable, Equatable {
    /// The `direct` command, not yet addressed.
    public var command: Data
    /// Nil: every client online (an app-wide broadcast).
    public var recipients: [String]?
    /// The sender: its own other sessions get the message live even though it is stored.
    public var from: String
    /// Where the message is in the store, when it is stored: a session catching up from the
    /// store gets it there rather than live.
    public var seq: Int64?
    /// A chat room's: never queued, and shed for connections that are behind.
    public var inChatRoom: Bool
    public var priority: Int32
}
