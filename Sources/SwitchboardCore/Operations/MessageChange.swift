/// An edit or a recall of a stored message, as its sender (or the app's server in the
/// sender's name) asks for it.
public struct MessageChange: Sendable {
    public var messageID: String
    /// The conversation the caller believes the message is in; nil when it does not say.
    public var conversationID: String?
    /// The message's send time, when the caller names the message by it too (the REST API
    /// does): a message sent at another time is not found.
    public var sentAt: Int64?
    /// The new content; nil recalls the message.
    public var content: MessageContent?
    public var mentionAll = false
    public var mentionPids: [String] = []

    public init(messageID: String, conversationID: String?, sentAt: Int64?, content: MessageContent?) {
        self.messageID = messageID
        self.conversationID = conversationID
        self.sentAt = sentAt
        self.content = content
    }

    public var isRecall: Bool { content == nil }
}
