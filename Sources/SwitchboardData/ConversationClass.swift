/// `_Conversation` among an app's classes: the IM store's conversations, as an `IMClass`
/// (`StoredConversations`) shows them.
public enum ConversationClass {
    public static let name = "_Conversation"
}
