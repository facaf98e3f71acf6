import Hummingbird

/// The server's router, and the methods each of its paths takes: Hummingbird answers a
/// request no handler takes with an empty 404 and keeps no list to tell a path it does not
/// have from a method a path does not take, so every route is added through here.
struct HTTPRoutes {
    let router = Router(context: RESTRequestContext.self)
    /// Hummingbird's form of each path (`/1.2/rtm/conversations/:conv_id`), by its
    /// segments, with the methods it takes.
    private var methods: [[Substring]: Set<HTTPRequest.Method>] = [:]

    mutating func on(
        _ path: String, method: HTTPRequest.Method, use handler: @Sendable @escaping (Request, RESTRequestContext) async throws -> some ResponseGenerator
    ) {
        router.on(RouterPath(path), method: method, use: handler)
        methods[Self.segments(path), default: []].insert(method)
    }

    mutating func get(_ path: String, use handler: @Sendable @escaping (Request, RESTRequestContext) async throws -> some ResponseGenerator) {
        on(path, method: .get, use: handler)
    }

    /// Finds who the caller is for every route added after (Hummingbird applies a router's
    /// middleware to the routes added after it).
    func authenticate(with authenticator: RESTAuthenticator) {
        router.add(middleware: authenticator)
    }

    /// The router, answering what no route takes in LeanCloud's JSON. Call once every route
    /// is in: a middleware added last wraps only the router's own not-found answer.
    func finished() -> Router<RESTRequestContext> {
        router.add(middleware: UnroutedRequestMiddleware(methods: allowed))
        return router
    }

    /// The methods a request's path is routed for (none: the path is not routed): those of
    /// the path the router resolves it to, which takes a fixed segment before a parameter
    /// (`/1.1/classes/_ConversationMemberInfo` before `/1.1/classes/:class_name`), whatever
    /// the method.
    private var allowed: @Sendable (String) -> Set<HTTPRequest.Method> {
        { [methods] path in
            let requested = Self.segments(path)
            let matching = methods.filter { pattern, _ in
                pattern.count == requested.count && zip(pattern, requested).allSatisfy { $0.hasPrefix(":") || $0 == $1 }
            }
            return matching.min { Self.isResolved($0.key, before: $1.key) }?.value ?? []
        }
    }

    /// Whether the router resolves `pattern` before `other`: where they first differ, its
    /// segment is fixed and the other's a parameter.
    private static func isResolved(_ pattern: [Substring], before other: [Substring]) -> Bool {
        for (segment, otherSegment) in zip(pattern, other) where segment.hasPrefix(":") != otherSegment.hasPrefix(":") {
            return !segment.hasPrefix(":")
        }
        return false
    }

    private static func segments(_ path: String) -> [Substring] {
        path.split(separator: "/")
    }
}
