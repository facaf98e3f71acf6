/// Who a REST request is, as `RESTAuthenticator` found it: the app's own server (the master
/// key, or its signature), or an app's client (the app key), and the client whose login the
/// request's session token is from.
struct RESTCaller: Sendable {
    enum Credential: Sendable {
        /// `X-LC-Key: <master key>,master`.
        case masterKey
        /// A master signature in `X-LC-Sign`, without `X-LC-Key`.
        case masterSignature
        /// `X-LC-Key: <app key>`.
        case appKey
    }

    let credential: Credential
    /// The client named in `client_id` whose login gave the session token in
    /// `X-LC-IM-Session-Token`; nil when either is missing or they do not match.
    let client: String?

    var isMaster: Bool { credential != .appKey }

    /// Whether the caller may call a route of the app's server: with the master key, or the
    /// app key where the route takes it.
    func mayCall(appKeyAllowed: Bool) -> Bool {
        isMaster || appKeyAllowed
    }

    /// Whether the caller sent a key (the app key or the master key) rather than a signature:
    /// what the routes the SDKs call for a logged-in client take.
    var sentKey: Bool { credential != .masterSignature }
}
