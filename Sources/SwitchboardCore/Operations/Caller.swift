/// Who asks the core for something: the rights it is done with, and where what the caller
/// itself must hear goes. The WebSocket gateway asks as a client; the REST API (master key)
/// as the app's server.
public enum Caller: Sendable {
    /// A client with a session on `connection`: a member's rights, under the app's rules
    /// (membership, roles, signatures, edit windows).
    case client(String, on: Connection)
    /// The app's own server, in `clientID`'s name: above every role and rule, member or not,
    /// as LeanCloud's REST API is.
    case server(as: String)

    /// The client the operation is done in the name of.
    public var clientID: String {
        switch self {
        case .client(let id, _), .server(let id): id
        }
    }

    /// The connection the request came on; nil for the app's server.
    public var connection: Connection? {
        if case .client(_, let connection) = self { return connection }
        return nil
    }

    /// Whether the app's rules for clients bind the caller; the app's server is above them.
    public var isClient: Bool {
        if case .client = self { return true }
        return false
    }

    /// What hooks see as `sourceIP`: the client's address, or "server".
    var sourceIP: String {
        connection?.remoteAddress ?? "server"
    }
}
