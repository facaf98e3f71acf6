import Synchronization

/// Session tokens (`st`) handed out at login, so an SDK can reopen a session after a
/// reconnect without asking the app for a new signature. Kept in memory: a restarted server
/// simply asks clients to sign again.
public final class SessionTokens: Sendable {
    public static let lifetimeSeconds: Int32 = 86_400

    private struct Grant {
        var clientID: String
        var expiresAt: Int64
    }

    private let grants = Mutex<[String: Grant]>([:])

    public init() {}

    public func issue(for clientID: String, now: Int64) -> String {
        let token = Identifiers.sessionToken()
        grants.withLock { grants in
            grants = grants.filter { $0.value.expiresAt > now }
            grants[token] = Grant(clientID: clientID, expiresAt: now + Int64(Self.lifetimeSeconds) * 1000)
        }
        return token
    }

    public func isValid(_ token: String, for clientID: String, now: Int64) -> Bool {
        grants.withLock { grants in
            guard let grant = grants[token] else { return false }
            return grant.clientID == clientID && grant.expiresAt > now
        }
    }
}
