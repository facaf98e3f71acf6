import Hummingbird

/// A request's context on the server's router: Hummingbird's own, and who the caller is.
struct RESTRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// Set by `RESTAuthenticator` on the REST APIs' routes; nil when no credential checks out.
    var caller: RESTCaller?

    init(source: Source) {
        coreContext = .init(source: source)
    }
}
