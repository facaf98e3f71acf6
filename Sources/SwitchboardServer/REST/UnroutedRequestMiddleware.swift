import Hummingbird

/// Answers a request no route takes as LeanCloud answers every failure ("a failed response
/// always contains code and error"): 404 for a path the server does not have, 405 with
/// `Allow` for a method the path does not take. LeanCloud's docs say nothing of these two
/// codes; the HTTP status doubles as `code`.
struct UnroutedRequestMiddleware: RouterMiddleware {
    typealias Context = RESTRequestContext
    /// The methods a path is routed for, none when it is not.
    let methods: @Sendable (String) -> Set<HTTPRequest.Method>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = methods(request.uri.path)
            guard !allowed.isEmpty else {
                return RESTResponse.error(.notFound, code: 404, "no route for \(request.uri.path)")
            }
            var response = RESTResponse.error(.methodNotAllowed, code: 405, "Method Not Allowed")
            response.headers[.allow] = allowed.map(\.rawValue).sorted().joined(separator: ", ")
            return response
        }
    }
}
