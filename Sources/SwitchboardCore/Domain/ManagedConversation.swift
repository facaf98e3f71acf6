/// A conversation's managers as the store reads them for `_ConversationMemberInfo`: the
/// roles and the times, without the member list.
public struct ManagedConversation: Sendable, Equatable {
    public var id: String
    public var managers: [String]
    /// Milliseconds since 1970.
    public var createdAt: Int64
    public var updatedAt: Int64
    /// When a temporary conversation stops existing.
    public var expiresAt: Int64?

    public init(id: String, managers: [String], createdAt: Int64, updatedAt: Int64, expiresAt: Int64?) {
        self.id = id
        self.managers = managers
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.expiresAt = expiresAt
    }
}
