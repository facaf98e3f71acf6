/// A conversation's unread state for one member: messages from others past its read
/// position, whether any of them mentions it, and the conversation's newest message.
public struct UnreadSummary: Sendable, Equatable {
    public var conversationID: String
    public var count: Int
    public var mentioned: Bool
    public var lastMessage: Message?

    public init(conversationID: String, count: Int, mentioned: Bool, lastMessage: Message?) {
        self.conversationID = conversationID
        self.count = count
        self.mentioned = mentioned
        self.lastMessage = lastMessage
    }
}
