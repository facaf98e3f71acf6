import SwitchboardWire

/// One client connection, known to the core from the moment its socket opens.
///
/// A connection can carry sessions of several clients at once: LeanCloud's SDKs share one
/// socket between the `IMClient`s of an app and name the client in each command's `peerId`.
public struct Connection: Sendable {
    public let id: UInt64
    public let outbox: any Outbox
    /// The peer address, for logs and hooks (`sourceIP`).
    public let remoteAddress: String
    /// How its clients learn at login of what they missed: its subprotocol's choice.
    public let missedMessages: MissedMessages
    /// The messages it is sending (see `SendSequence`).
    let sends = SendSequence()

    public init(id: UInt64, outbox: any Outbox, remoteAddress: String, missedMessages: MissedMessages) {
        self.id = id
        self.outbox = outbox
        self.remoteAddress = remoteAddress
        self.missedMessages = missedMessages
    }
}
