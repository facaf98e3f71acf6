/// A member's role as LeanCloud's `_ConversationMemberInfo` keeps it.
public struct ImportedRole: Sendable, Equatable {
    public var conversationID: String
    public var clientID: String
    public var role: MemberRole

    public init(conversationID: String, clientID: String, role: MemberRole) {
        self.conversationID = conversationID
        self.clientID = clientID
        self.role = role
    }
}
