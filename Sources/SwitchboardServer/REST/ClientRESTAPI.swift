import Foundation
import Hummingbird
import SwitchboardCore
import SwitchboardData
import SwitchboardJSON

/// The parts of LeanCloud's REST API the realtime SDKs call for a logged-in client:
/// `GET /1.1/classes/_ConversationMemberInfo` (member roles) and `GET /1.1/rtm/notifications`. A request names the app
/// (`X-LC-Id`, and `X-LC-Key` with the app key or `<master key>,master`) and the client (`client_id`, with the session token its login
/// gave in `X-LC-IM-Session-Token`). A query of `_ConversationMemberInfo` that names no client, with the master key
/// (the app's server, an export), is LeanStorage's query of the class in `appData`, as of any class.
struct ClientRESTAPI {
    let core: MessagingCore
    let appData: any AppData

    func register(on router: inout HTTPRoutes) {
        // The SDKs' catch-up on notices missed while offline. Switchboard replays those over
        // the WebSocket right after `session/opened` (SDKs that never call here get them
        // too), so this answers that nothing is left; handing them out here as well would
        // give the JavaScript SDK each twice.
        router.get("/1.1/rtm/notifications") { _, context in
            await respond(to: context) { _ in ["hasMore": false, "notifications": []] }
        }
        router.get("/1.1/classes/_ConversationMemberInfo") { request, context in
            let parameters = QueryParameters(request)
            if parameters["client_id"] == nil, context.caller?.isMaster == true {
                return await RESTResponse.answering {
                    try await StorageCall.find(className: IMClasses.memberInfo, parameters: parameters.json).run(on: appData).body
                }
            }
            return await respond(to: context) { clientID in
                let whereDocument = try QueryParameters(request).whereDocument()
                return ["results": .array(try await core.memberInfoObjects(where: whereDocument, for: clientID))]
            }
        }
    }

    /// Requires the app and the client (see `RESTAuthenticator`), then answers with `body`'s
    /// JSON (see `RESTResponse.answering` for errors).
    private func respond(to context: RESTRequestContext, _ body: (String) async throws -> JSONValue) async -> Response {
        guard let caller = context.caller, caller.sentKey else {
            return RESTResponse.error(.unauthorized, code: 401, "Unauthorized.")
        }
        guard let clientID = caller.client else {
            return RESTResponse.error(.unauthorized, code: 4112, "SESSION_TOKEN_EXPIRED: client_id and X-LC-IM-Session-Token do not match a login")
        }
        return await RESTResponse.answering { try await body(clientID) }
    }
}

/// A request the REST API refuses as malformed (LeanCloud's code 107, invalid JSON).
struct RESTFailure: Error {
    let message: String
}

/// A body over the REST API's limit: LeanCloud's 413 "Payload Too Large.".
struct RESTPayloadTooLarge: Error {}
