/// Who may see and change a conversation, in one place so that every command applies the
/// same rules (docs/security.md).
///
/// Members see everything of their conversations. Others, as on LeanCloud, may find
/// one-to-one and group conversations (name, attributes, members, last message) and chat
/// rooms (name, attributes), but never read their history; temporary conversations exist only for their members. With
/// `privateConversations`, one-to-one and group conversations are invisible to non-members
/// too, and joining one takes an invitation or a signature.
struct ConversationAccess: Sendable {
    let privateConversations: Bool

    /// Whether `clientID` may know the conversation exists: find it in `conv/query`, count
    /// its members, ask to join it.
    func isVisible(_ conversation: Conversation, to clientID: String) -> Bool {
        if conversation.members.contains(clientID) { return true }
        switch conversation.kind {
        case .transient, .system: return true
        case .normal: return !privateConversations
        case .temporary: return false
        }
    }

    /// Whether a non-member sees the member list. Chat rooms are large and anonymous.
    func showsMembers(of conversation: Conversation, to clientID: String) -> Bool {
        conversation.members.contains(clientID) || conversation.kind == .normal
    }

    /// Whether the last message's content and sender show: to members, and as on LeanCloud
    /// (its SDK's suite reads the last message of a conversation it is not in) to anyone who
    /// may find a one-to-one or group conversation. History stays the members'.
    func showsLastMessage(of conversation: Conversation, to clientID: String) -> Bool {
        conversation.members.contains(clientID) || (conversation.kind == .normal && !privateConversations)
    }

    /// Whether a non-member joining by itself needs a signature it did not have to show
    /// otherwise: private one-to-one and group conversations.
    func joiningRequiresSignature(_ conversation: Conversation) -> Bool {
        privateConversations && conversation.kind == .normal
    }
}
