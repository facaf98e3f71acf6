import SwitchboardJSON

/// A conversation as stored: a one-to-one or group chat, a chat room (transient) or a
/// temporary conversation that expires.
public struct Conversation: Sendable, Equatable {
    public enum Kind: Int, Sendable {
        case normal = 1
        case transient = 2
        case system = 3
        case temporary = 4
    }

    public var id: String
    public var kind: Kind
    public var name: String?
    public var creator: String
    public var members: [String]
    /// Custom attributes (`attr` in LeanCloud's conversation objects).
    public var attributes: [String: JSONValue]
    /// For `unique` conversations: the sorted member list that identifies it.
    public var uniqueKey: String?
    /// Members who turned off pushes for it (`mu`).
    public var mutedBy: [String]
    /// Members the owner made managers; the owner is the creator.
    public var managers: [String]
    /// Members who may not send (`add_shutup`).
    public var silenced: [String]
    /// Members who may not send until a time (milliseconds; the REST API's temporary
    /// silencing). Times past mean nothing.
    public var silencedUntil: [String: Int64]
    /// Clients who may not join or be added (the conversation's blacklist).
    public var blocked: [String]
    public var createdAt: Int64
    public var updatedAt: Int64
    public var lastMessageAt: Int64?
    /// Temporary conversations stop existing after this time (milliseconds).
    public var expiresAt: Int64?

    public init(
        id: String, kind: Kind, name: String?, creator: String, members: [String],
        attributes: [String: JSONValue], uniqueKey: String?, mutedBy: [String] = [],
        managers: [String] = [], silenced: [String] = [], silencedUntil: [String: Int64] = [:], blocked: [String] = [], createdAt: Int64, updatedAt: Int64, lastMessageAt: Int64? = nil, expiresAt: Int64? = nil
    ) {
        self.id = id
        self.kind = kind
        self.name = name
        self.creator = creator
        self.members = members
        self.attributes = attributes
        self.uniqueKey = uniqueKey
        self.mutedBy = mutedBy
        self.managers = managers
        self.silenced = silenced
        self.silencedUntil = silencedUntil
        self.blocked = blocked
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.lastMessageAt = lastMessageAt
        self.expiresAt = expiresAt
    }

    public var isTransient: Bool { kind == .transient }
    public var isTemporary: Bool { kind == .temporary }

    /// Whether `clientID` may not send now, for good or for a while.
    public func isSilenced(_ clientID: String, at now: Int64) -> Bool {
        silenced.contains(clientID) || silencedUntil[clientID].map { $0 > now } == true
    }

    public func isExpired(at now: Int64) -> Bool {
        guard let expiresAt else { return false }
        return now >= expiresAt
    }

    /// The key that identifies a unique conversation by its members, whatever their order;
    /// temporary conversations have keys of their own, so the same members may have both.
    public static func uniqueKey(for members: [String], temporary: Bool = false) -> String {
        (temporary ? Identifiers.temporaryPrefix : "") + Set(members).sorted().joined(separator: "\u{1F}")
    }
}
