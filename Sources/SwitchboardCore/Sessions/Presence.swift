import Synchronization

/// Which clients have a session open, on which connections, with which tags. The one place
/// that knows: a session displaced by a tag conflict is gone from here, so its connection
/// can no longer act for that client.
///
/// A lock rather than an actor: every delivery reads it, and the critical sections are a
/// few dictionary operations with no suspension points.
public final class Presence: Sendable {
    public struct Session: Sendable {
        public var connection: Connection
        public var tag: String?
        public var deviceID: String?
    }

    private struct State {
        var byClient: [String: [UInt64: Session]] = [:]
        var byConnection: [UInt64: Set<String>] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    /// Opens a session and returns the sessions it displaces: those of the same client with
    /// the same non-empty tag on another connection.
    public func open(_ session: Session, for clientID: String) -> [Session] {
        state.withLock { state in
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
            return displaced
        }
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

    public func hasSession(clientID: String, connectionID: UInt64) -> Bool {
        state.withLock { $0.byClient[clientID]?[connectionID] != nil }
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

    public var onlineClientIDs: [String] {
        state.withLock { Array($0.byClient.keys) }
    }

    private static func remove(clientID: String, connectionID: UInt64, from state: inout State) -> Session? {
        let removed = state.byClient[clientID]?.removeValue(forKey: connectionID)
        if state.byClient[clientID]?.isEmpty == true { state.byClient[clientID] = nil }
        state.byConnection[connectionID]?.remove(clientID)
        if state.byConnection[connectionID]?.isEmpty == true { state.byConnection[connectionID] = nil }
        return removed
    }
}
