/// A conversation muted or unmuted for clients: they get no pushes for it (`conv/mute`,
/// `conv/unmute`, the REST API's mutes). A client mutes for itself alone.
public struct MuteChange: Sendable {
    public var conversationID: String
    public var clients: [String]
    public var muted: Bool

    public init(conversationID: String, clients: [String], muted: Bool) {
        self.conversationID = conversationID
        self.clients = clients
        self.muted = muted
    }
}

/// A member's role changed (`conv/member_info_update`, the REST API's member-infos).
public struct RoleChange: Sendable {
    public var conversationID: String
    public var member: String
    /// Manager or Member: the owner is the creator, for good.
    public var role: MemberRole

    public init(conversationID: String, member: String, role: MemberRole) {
        self.conversationID = conversationID
        self.member = member
        self.role = role
    }
}

/// Members silenced (they may not send) or let speak again (`conv/add_shutup`,
/// `remove_shutup`, the REST API's permanent and temporary silences).
public struct SilenceChange: Sendable {
    public enum Action: Sendable {
        /// Silenced until lifted.
        case silence
        /// Lifts `silence`.
        case lift
        /// Silenced for some seconds.
        case silenceFor(seconds: Int64)
        /// Lifts `silenceFor`; a silence until lifted stays.
        case liftTimed

        var silences: Bool {
            switch self {
            case .silence, .silenceFor: true
            case .lift, .liftTimed: false
            }
        }
    }

    public var conversationID: String
    public var clients: [String]
    public var action: Action

    public init(conversationID: String, clients: [String], action: Action) {
        self.conversationID = conversationID
        self.clients = clients
        self.action = action
    }
}

/// Clients blocked from a conversation or unblocked (`blacklist/block`, `unblock`, the
/// REST API's blacklists). Blocked members leave; blocked clients cannot join or be added.
public struct BlockChange: Sendable {
    public var conversationID: String
    public var clients: [String]
    public var blocked: Bool

    public init(conversationID: String, clients: [String], blocked: Bool) {
        self.conversationID = conversationID
        self.clients = clients
        self.blocked = blocked
    }
}

/// What a silence or block did.
public struct ModerationResult: Sendable {
    /// The conversation as saved.
    public var conversation: Conversation
    /// The clients acted on, each once (`allowedPids`).
    public var clients: [String]
}
