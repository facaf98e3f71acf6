/// What kind of conversation a message is in: context for handlers beside the documented
/// parameters (scripts do not see it).
public enum ConversationKind: String, Sendable, Codable, CaseIterable {
    /// Two members.
    case oneToOne = "one-to-one"
    case group
    /// A transient conversation.
    case chatRoom = "chat-room"
}
