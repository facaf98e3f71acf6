/// A conversation's blocked and silenced members, whole, as an export lists them.
public struct ImportedLists: Sendable, Equatable {
    public var conversationID: String
    public var blocked: [String]
    public var silenced: [String]

    public init(conversationID: String, blocked: [String], silenced: [String]) {
        self.conversationID = conversationID
        self.blocked = blocked
        self.silenced = silenced
    }
}
