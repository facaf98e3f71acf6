import Synchronization
import SwitchboardWire

/// Which clients have a session open, on which connections, with which tags. The one place
/// that knows: a session displaced by a tag conflict is gone from here, so its connection
/// can no longer act for that client.
///
/// A lock rather than an actor: every delivery reads it, and the critical sections are a
/// few dictionary operations with no suspension points.
///
/// It also knows how far stored messages go (`messageStored`), so that a session opening
/// and a message being delivered agree on which of the two brings the message to it: the
/// session's catch-up from the store covers what was stored before it opened (up to
/// `liveFrom`), live delivery what was stored after. Each message reaches it once, and in
/// order: live deliveries wait (`send(_:to:)`) until the catch-up is written (`caughtUp`).
///
/// Where transactions commit side by side (PostgreSQL, several nodes), a message can take its
/// `seq` before another and commit after it: a session opening in between has a `liveFrom`
/// past it, and its catch-up did not see it. Such deliveries come back from `missed` to be
/// looked up in the store once the catch-up is over, before the live deliveries kept for it.
public final class Presence: Sendable {
    public struct Session: Sendable {
        public var connection: Connection
        public var tag: String?
        public var device: DeviceAddress
        /// Stored messages up to this `seq` reach the session through its catch-up, not
        /// live; set when it opens.
        public var liveFrom: Int64 = .max
        /// When it opened (wall-clock milliseconds): what was delivered to its device since
        /// then was delivered to it.
        public var openedAt: Int64 = 0
        /// Its place among logins on every node, once known (see `Relay.tagTaken`).
        public var loginOrder: Int64?

        public init(connection: Connection, tag: String?, device: DeviceAddress) {
            self.connection = connection
            self.tag = tag
            self.device = device
        }

        /// Whether live delivery brings the message stored at `seq` here (its catch-up does
        /// not); nil for one not stored.
        func takesLive(seq: Int64?) -> Bool {
            guard let seq else { return true }
            return seq > liveFrom
        }
    }

    private struct SessionKey: Hashable {
        var clientID: String
        var connectionID: UInt64
    }

    private struct State {
        var byClient: [String: [UInt64: Session]] = [:]
        var byConnection: [UInt64: Set<String>] = [:]
        var storedUpTo: Int64 = 0
        /// Live deliveries waiting for sessions that are still catching up.
        var held: [SessionKey: [GenericCommand]] = [:]
        /// The `seq`s of deliveries their catch-up may have missed, for sessions still
        /// catching up.
        var missed: [SessionKey: [Int64]] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    /// A message was stored (before it is delivered).
    public func messageStored(seq: Int64) {
        state.withLock { $0.storedUpTo = max($0.storedUpTo, seq) }
    }

    /// Opens a session; returns the sessions it displaces (those of the same client with the
    /// same non-empty tag on another connection) and how far its catch-up from the store goes.
    public func open(_ session: Session, for clientID: String) -> (displaced: [Session], catchUpTo: Int64) {
        state.withLock { state in
            var session = session
            session.liveFrom = state.storedUpTo
            var sessions = state.byClient[clientID, default: [:]]
            var displaced: [Session] = []
            if let tag = session.tag, !tag.isEmpty {
                for (id, other) in sessions where other.tag == tag && id != session.connection.id {
                    displaced.append(other)
                    sessions[id] = nil
                    state.byConnection[id]?.remove(clientID)
                }
            }
            sessions[session.connection.id] = session
            state.byClient[clientID] = sessions
            state.byConnection[session.connection.id, default: []].insert(clientID)
            state.held[SessionKey(clientID: clientID, connectionID: session.connection.id)] = []
            return (displaced, session.liveFrom)
        }
    }

    /// Records the place of an open session among logins on every node.
    public func setLoginOrder(_ order: Int64, clientID: String, connectionID: UInt64) {
        state.withLock { $0.byClient[clientID]?[connectionID]?.loginOrder = order }
    }

    /// Ends one client's session on one connection and returns it, if it was open.
    public func close(clientID: String, connectionID: UInt64) -> Session? {
        state.withLock { state in
            Self.remove(clientID: clientID, connectionID: connectionID, from: &state)
        }
    }

    /// Ends every session of a connection that went away and returns them by client.
    public func closeAll(connectionID: UInt64) -> [(clientID: String, session: Session)] {
        state.withLock { state in
            let clients = state.byConnection[connectionID] ?? []
            return clients.compactMap { clientID in
                Self.remove(clientID: clientID, connectionID: connectionID, from: &state).map { (clientID, $0) }
            }
        }
    }

    /// Sends a live delivery to a session, addressed to its client, or keeps it until the
    /// session has caught up.
    public func send(_ shared: SharedCommand, to session: Session) {
        let clientID = session.device.clientID
        let key = SessionKey(clientID: clientID, connectionID: session.connection.id)
        state.withLock { state in
            if state.held[key] != nil {
                state.held[key]?.append(shared.addressed(to: clientID))
            } else {
                session.connection.outbox.send(shared, to: clientID)
            }
        }
    }

    /// A live delivery of `seq`, which the session's catch-up covers, came after it opened:
    /// the catch-up may have missed it. Returns true if the session has caught up already, so
    /// the caller looks it up now; otherwise `caughtUp` returns it.
    public func missed(seq: Int64, by session: Session) -> Bool {
        let key = SessionKey(clientID: session.device.clientID, connectionID: session.connection.id)
        return state.withLock { state in
            guard state.held[key] != nil else { return true }
            state.missed[key, default: []].append(seq)
            return false
        }
    }

    /// The session's catch-up is written. Returns the `seq`s it may have missed, still keeping
    /// live deliveries for it: the caller sends those from the store, then calls again. With
    /// none, what was kept follows, then live deliveries. Missed ones go first: sent after a
    /// later message of their conversation, they arrived out of order, and an ack of the later
    /// one moved the device's position past them for good.
    public func caughtUp(clientID: String, connectionID: UInt64) -> [Int64] {
        state.withLock { state in
            let key = SessionKey(clientID: clientID, connectionID: connectionID)
            if let missed = state.missed.removeValue(forKey: key), !missed.isEmpty { return missed }
            Self.release(key, from: &state)
            return []
        }
    }

    /// The session's catch-up failed: what was kept for it follows at once, then live deliveries.
    public func abandonCatchUp(clientID: String, connectionID: UInt64) {
        state.withLock { state in
            let key = SessionKey(clientID: clientID, connectionID: connectionID)
            state.missed[key] = nil
            Self.release(key, from: &state)
        }
    }

    private static func release(_ key: SessionKey, from state: inout State) {
        guard let held = state.held.removeValue(forKey: key), let session = state.byClient[key.clientID]?[key.connectionID] else { return }
        for command in held { session.connection.outbox.send(command) }
    }

    public func hasSession(clientID: String, connectionID: UInt64) -> Bool {
        session(clientID: clientID, connectionID: connectionID) != nil
    }

    public func session(clientID: String, connectionID: UInt64) -> Session? {
        state.withLock { $0.byClient[clientID]?[connectionID] }
    }

    public func sessions(of clientID: String) -> [Session] {
        state.withLock { state in
            state.byClient[clientID].map { Array($0.values) } ?? []
        }
    }

    /// Every device with a session open and caught up, and the connections of each.
    public var onlineDevices: [DeviceAddress: [Connection]] {
        state.withLock { state in
            var devices: [DeviceAddress: [Connection]] = [:]
            for (clientID, sessions) in state.byClient {
                // One still catching up gets every pending message from its catch-up; sent
                // here too, a message would arrive twice.
                for (connectionID, session) in sessions where state.held[SessionKey(clientID: clientID, connectionID: connectionID)] == nil {
                    devices[session.device, default: []].append(session.connection)
                }
            }
            return devices
        }
    }

    /// Every session open here.
    public var allSessions: [Session] {
        state.withLock { $0.byClient.values.flatMap(\.values) }
    }

    /// The clients with a session on this connection.
    public func clients(on connectionID: UInt64) -> Set<String> {
        state.withLock { $0.byConnection[connectionID] ?? [] }
    }

    public func connections(of clientID: String) -> [Connection] {
        state.withLock { state in
            state.byClient[clientID].map { $0.values.map(\.connection) } ?? []
        }
    }

    public func isOnline(_ clientID: String) -> Bool {
        state.withLock { $0.byClient[clientID] != nil }
    }

    private static func remove(clientID: String, connectionID: UInt64, from state: inout State) -> Session? {
        let removed = state.byClient[clientID]?.removeValue(forKey: connectionID)
        if state.byClient[clientID]?.isEmpty == true { state.byClient[clientID] = nil }
        state.byConnection[connectionID]?.remove(clientID)
        if state.byConnection[connectionID]?.isEmpty == true { state.byConnection[connectionID] = nil }
        state.held[SessionKey(clientID: clientID, connectionID: connectionID)] = nil
        state.missed[SessionKey(clientID: clientID, connectionID: connectionID)] = nil
        return removed
    }
}
