/// How one node of several sharing a database reaches the others: it publishes what their
/// clients must receive and answers who is online on them. A single server has no others
/// (`SingleNode`).
public protocol NodeLink: Sendable {
    /// Hands `relay` to the other nodes, after what it tells of is committed. Never waits
    /// and never fails the caller: a relay that cannot go out is logged, and what it carried
    /// is in the store (queued messages are redelivered, notices replayed at login).
    /// `relay` is built only if there are others to hand it to.
    func publish(_ relay: @autoclosure () -> Relay)
    /// Which of `clientIDs` have a session open on another node.
    func onlineElsewhere(_ clientIDs: [String]) async -> Set<String>
    /// Every client with a session open on another node (for statistics).
    func everyoneOnlineElsewhere() async -> Set<String>
    /// Whether `clientID` has a session with `tag` open on another node (that logged in
    /// after the `order`th login, if given).
    func holdsTagElsewhere(_ clientID: String, tag: String, loggedInAfter order: Int64?) async -> Bool
    /// Runs `change` while no other node changes conversation `id` (see `ConversationLocks`).
    func exclusively<Value: Sendable>(conversation id: String, _ change: () async throws -> Value) async throws -> Value
    /// Records a signature's nonce, used until `expiry` (seconds); false if a node took it
    /// before and it has not expired at `now`.
    func useNonce(_ nonce: String, until expiry: Int64, now: Int64) async throws -> Bool
    /// Keeps a will message set here where the other nodes find it should this node die:
    /// its connections then drop with nobody here to send it.
    func keepWill(_ will: RelayedDelivery, of clientID: String) async
    /// The will was sent here, or withdrawn.
    func dropWill(of clientID: String) async
    /// A session opened or closed here, for the others' `onlineElsewhere`. Returns the
    /// session's place among logins on every node (see `Relay.tagTaken`), if known.
    func sessionOpened(_ session: Presence.Session) async -> Int64?
    func sessionClosed(_ session: Presence.Session) async
}

/// The one node there is: nothing to publish, nobody elsewhere.
public struct SingleNode: NodeLink {
    public init() {}
    public func publish(_ relay: @autoclosure () -> Relay) {}
    public func onlineElsewhere(_ clientIDs: [String]) async -> Set<String> { [] }
    public func everyoneOnlineElsewhere() async -> Set<String> { [] }
    public func holdsTagElsewhere(_ clientID: String, tag: String, loggedInAfter order: Int64?) async -> Bool { false }
    public func exclusively<Value: Sendable>(conversation id: String, _ change: () async throws -> Value) async throws -> Value {
        try await change()
    }
    /// This node's `NonceRegistry` is every node's.
    public func useNonce(_ nonce: String, until expiry: Int64, now: Int64) async throws -> Bool { true }
    public func keepWill(_ will: RelayedDelivery, of clientID: String) async {}
    public func dropWill(of clientID: String) async {}
    public func sessionOpened(_ session: Presence.Session) async -> Int64? { nil }
    public func sessionClosed(_ session: Presence.Session) async {}
}
