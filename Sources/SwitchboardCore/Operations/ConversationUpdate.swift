import SwitchboardJSON

/// A change of a conversation's name and attributes (`conv/update`, the REST API's PUT of a
/// conversation).
public struct ConversationUpdate: Sendable {
    public var conversationID: String
    /// Keys and their new values, as `conv/update` takes them: `name`, custom keys, dotted
    /// paths (`attr.color`), and `{"__op": "Delete"}` to delete one.
    public var changes: [String: JSONValue]

    public init(conversationID: String, changes: [String: JSONValue]) {
        self.conversationID = conversationID
        self.changes = changes
    }
}

/// What an update did.
public struct UpdatedConversation: Sendable {
    /// The conversation as saved.
    public var conversation: Conversation
    /// The changes made: those asked for, or what `_conversationUpdate` put in their place.
    public var changes: [String: JSONValue]
}
