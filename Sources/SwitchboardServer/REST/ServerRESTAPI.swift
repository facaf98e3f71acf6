import Foundation
import Hummingbird
import Metrics
import NIOCore
import SwitchboardCore
import SwitchboardData
import SwitchboardHooks
import SwitchboardJSON

/// LeanCloud's IM REST API (v2, `/1.2/rtm/...`) for the app's own server, with the master
/// key: conversations, messages, system conversations, clients. Each goes through the
/// core's own paths, so hooks, storage, delivery and pushes are a client's. With it,
/// LeanStorage's REST API over the app's data (`/1.1/classes`, `StorageRoutes`), for the
/// same server and for LeanEngine apps pointed here. The routes are `Self.routes`;
/// `/openapi.json` describes them.
struct ServerRESTAPI {
    let core: MessagingCore
    let appData: any AppData
    let limiter: RESTRateLimiter
    /// Requests refused past a limit, by class.
    let refusals: [RESTRateClass: Counter]

    init(
        core: MessagingCore, appData: any AppData, rateLimits: RESTRateLimits, metrics: HookMetrics
    ) {
        self.core = core
        self.appData = appData
        limiter = RESTRateLimiter(limits: rateLimits)
        refusals = Dictionary(uniqueKeysWithValues: RESTRateClass.allCases.map { rateClass in
            (rateClass, metrics.makeCounter(
                subsystem: "rest", name: "rate_limited", help: "REST requests refused past a rate limit (429).", labels: [("class", rateClass.rawValue)]
            ))
        })
    }
    static func routes(_ core: MessagingCore, appData: any AppData) -> [RESTRoute] {
        ConversationRoutes.routes(core) + ModerationRoutes.routes(core) + MessageRoutes.routes(core)
            + SystemConversationRoutes.routes(core) + ClientRoutes.routes(core) + InstallationRoutes.routes(core)
            + StorageRoutes.routes(appData) + SchemaRoutes.routes(appData)
    }

    func register(on router: inout HTTPRoutes) {
        let routes = Self.routes(core, appData: appData)
        for route in routes {
            router.on(route.routerPath, method: route.method) { request, context in
                await respond(to: request, context: context, route: route)
            }
        }
        let document = OpenAPIDocument.json(for: routes)
        router.get("/openapi.json") { _, _ in RESTResponse.json(document) }
    }

    /// Requires the master key (or, where LeanCloud allows it, the app key), reads the body
    /// and answers with the route's reply; refusals answer with LeanCloud's code and a message.
    private func respond(to request: Request, context: RESTRequestContext, route: RESTRoute) async -> Response {
        guard context.caller?.mayCall(appKeyAllowed: route.appKeyAllowed) == true else {
            return RESTResponse.error(.unauthorized, code: 401, "Unauthorized.")
        }
        if let rateClass = route.rateClass, let wait = limiter.admit(rateClass, at: core.clock.now()) {
            refusals[rateClass]?.increment()
            var response = RESTResponse.error(.tooManyRequests, code: 429, "Too many requests.")
            response.headers[.retryAfter] = String(wait)
            return response
        }
        do {
            // LeanCloud's own example of reading a blacklist sends `client_ids` in a GET's
            // body; a GET takes nothing from a body, so it is ignored rather than refused.
            let body = request.method == .get ? [:] : try await Self.body(of: request, upTo: route.maxBodyBytes)
            if !route.moreFields, let unknown = body.keys.sorted().first(where: { name in !route.body.contains { $0.name == name } }) {
                throw RESTFailure(message: "unknown field \(unknown)")
            }
            var named: [String: String] = [:]
            for name in route.pathParameters { named[name] = context.parameters.get(name) }
            let call = RESTCall(pathParameters: named, query: QueryParameters(request), body: body)
            try await ConversationRoutes.requireKind(named: route, call, core: core)
            let reply = try await route.reply(call)
            var response = RESTResponse.json(reply.body, status: route.successStatus)
            response.headers.append(contentsOf: reply.headers)
            return response
        } catch {
            return RESTResponse.refusal(error)
        }
    }

    /// The JSON object of the body; none is an empty one.
    private static func body(of request: Request, upTo maxBodyBytes: Int) async throws -> [String: JSONValue] {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: maxBodyBytes)
        } catch {
            throw RESTPayloadTooLarge()
        }
        guard buffer.readableBytes > 0 else { return [:] }
        guard let value = try? JSONValue(parsing: String(buffer: buffer)) else { throw RESTFailure(message: "the body is not valid JSON") }
        guard let object = value.objectValue else { throw RESTFailure(message: "the body is not a JSON object") }
        return object
    }
}
