/// Clients a caller adds to a conversation or removes from it (`conv/add`, `conv/remove`,
/// the REST API's members). A client naming itself alone joins or leaves.
public struct MembershipChange: Sendable {
    public var conversationID: String
    public var clients: [String]
    /// A client's signature, where the app requires one.
    var signature = SignatureCheck.Presented()

    public init(conversationID: String, clients: [String]) {
        self.conversationID = conversationID
        self.clients = clients
    }
}

/// What an add or remove did: it may leave some clients out and go on with the others.
public struct MembershipResult: Sendable {
    /// The conversation as saved.
    public var conversation: Conversation
    /// The clients named that were not left out (`allowedPids`).
    public var allowed: [String]
    /// The clients left out, and why (`failedPids`).
    public var refused: [Refusal]
}

/// Clients a partly done request left out, and why.
public struct Refusal: Sendable, Equatable {
    public var clients: [String]
    public var error: CommandError
}
