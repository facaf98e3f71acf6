import SwitchboardJSON

/// A conversation or chat room as a caller asks to start it (`conv/start`, the REST API's
/// POST of a conversation or chat room).
public struct NewConversation: Sendable {
    public enum Kind: Sendable {
        /// A one-to-one or group conversation.
        case conversation
        /// A temporary conversation: it keeps its members, and it and its history go `ttl`
        /// seconds after it starts (the app's default when nil; at most the app's maximum).
        case temporary(ttl: Int32?)
        /// A chat room: members join and leave on their own, and it tells only them.
        case chatRoom
    }

    public var kind: Kind
    /// The members named; a client starting one is a member besides them.
    public var members: [String]
    /// `name` and custom attributes, as `conv/start`'s `attr` has them (the hooks see them
    /// so); keys the server owns are dropped.
    public var attributes: [String: JSONValue]
    /// Finds the conversation of the same members (temporary or not, as asked) instead of
    /// starting another, if there is one. Chat rooms are never unique.
    public var unique: Bool
    /// A client's signature, where the app requires one.
    var signature = SignatureCheck.Presented()

    public init(kind: Kind = .conversation, members: [String], attributes: [String: JSONValue] = [:], unique: Bool = false) {
        self.kind = kind
        self.members = members
        self.attributes = attributes
        self.unique = unique
    }
}

/// What a start gives back.
public struct StartedConversation: Sendable {
    /// The conversation started, or the one a unique start found.
    public var conversation: Conversation
    /// For a temporary conversation, the seconds it has left.
    public var secondsLeft: Int32?
    /// Whether a unique start found it rather than made it.
    public var existed = false
}
