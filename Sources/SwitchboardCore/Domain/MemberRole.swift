/// A member's role in a conversation, by LeanCloud's names: the creator owns it, the owner
/// makes managers, everyone else is a member.
public enum MemberRole: String, Sendable {
    case owner = "Owner"
    case manager = "Manager"
    case member = "Member"

    /// Owners and managers moderate: remove members, silence them, block clients.
    public var moderates: Bool { self != .member }

    /// Whether this role may moderate someone of `other`'s role: only those below it.
    public func outranks(_ other: MemberRole) -> Bool { rank > other.rank }

    private var rank: Int {
        switch self {
        case .owner: 2
        case .manager: 1
        case .member: 0
        }
    }
}

extension Conversation {
    public func role(of clientID: String) -> MemberRole {
        if clientID == creator { return .owner }
        return managers.contains(clientID) ? .manager : .member
    }
}
