/// A message as its sender (or the app's server in the sender's name) asks for it to be sent.
public struct OutgoingMessage: Sendable {
    public var conversationID: String
    public var content: MessageContent
    public var mentionAll = false
    public var mentionPids: [String] = []
    /// Whether the sender wants delivery and read receipts (`r`).
    public var wantsReceipt = false
    /// The sender's own id for the message (`dt`): sent again after a lost ack, it is not
    /// stored twice.
    public var clientToken: String?
    /// Delivered to whoever is online now, neither stored nor pushed (a chat room's
    /// messages are transient whatever this says, but still kept in its history).
    public var transient = false
    /// A client's will: held, and sent only when its connection drops. The app's server has
    /// no connection to drop; its messages are sent at once.
    public var isWill = false
    /// What the sender asks the push for offline members to carry (JSON, or plain text).
    public var pushData: String?
    public var priority: MessagePriority = .normal
    /// Whether the sender's other online devices get it too (the REST API's `no_sync` turns
    /// that off).
    public var toSender = true
    /// Only these clients receive it and see it in history (the REST API's `to_clients`);
    /// nil for every member.
    public var audience: [String]?

    public init(conversationID: String, content: MessageContent) {
        self.conversationID = conversationID
        self.content = content
    }
}

/// What became of a send.
public struct SentMessage: Sendable {
    public enum Outcome: Sendable {
        /// Stored (unless transient) and delivered.
        case delivered
        /// Sent again after a lost ack: `message` is the first copy, stored and delivered then.
        case alreadySent
        /// Held as the sender's will until its connection drops.
        case heldAsWill
    }

    public let message: Message
    public let outcome: Outcome
}
