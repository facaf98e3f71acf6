/// A client's place in a conversation and when it took it: LeanCloud's subscription
/// records of system conversations (`subscriber`, `conv_id`, `timestamp`).
public struct Membership: Sendable, Equatable {
    public let conversationID: String
    public let clientID: String
    /// Milliseconds; members from before the store kept join times show the
    /// conversation's creation time.
    public let joinedAt: Int64

    public init(conversationID: String, clientID: String, joinedAt: Int64) {
        self.conversationID = conversationID
        self.clientID = clientID
        self.joinedAt = joinedAt
    }
}
