import Foundation
import Hummingbird
import NIOCore
import SwitchboardCore
import SwitchboardJSON
import SwitchboardWire

/// LeanCloud's IM REST API (v2, `/1.2/rtm/...`) for the app's own server, with the master
/// key: send as a client, read history, run system conversations, kick clients. Each goes
/// through the core's own paths, so hooks, storage, delivery and pushes are a client's.
/// `openapi.json` beside it describes exactly these routes.
struct ServerRESTAPI {
    let appID: String
    let appKey: String
    let masterKey: String
    let core: MessagingCore
    /// Bodies past this are refused: a message is at most 5 KB, with room for the rest.
    static let maxBodyBytes = 64 * 1024

    func register(on router: Router<BasicRequestContext>) {
        router.post("/1.2/rtm/conversations/:conv_id/messages") { request, context in
            await respond(to: request) { body in
                let (direct, from, priority) = try Self.message(body, conversationID: try context.parameters.require("conv_id"))
                return Self.sent(try await core.sendAsServer(direct, from: from, priority: priority))
            }
        }
        router.get("/1.2/rtm/conversations/:conv_id/messages") { request, context in
            await respond(to: request) { _ in
                let query = try HistoryParameters(parameters: QueryParameters(request)).query(conversationID: try context.parameters.require("conv_id"))
                let (conversation, page) = try await core.history(query)
                // The store pages oldest first; LeanCloud lists newest first unless reversed.
                let listed = query.direction == .older ? page.reversed() : page
                return .array(listed.map { RESTMessage.json($0, in: conversation) })
            }
        }
        router.post("/1.2/rtm/service-conversations") { request, _ in
            await respond(to: request) { body in
                var attributes = try RESTBody.object(body)
                let name = attributes.removeValue(forKey: "name")?.stringValue
                let created = try await core.createSystemConversation(name: name, attributes: attributes)
                return ["objectId": .string(created.id), "createdAt": .string(ISODate.string(milliseconds: created.createdAt))]
            }
        }
        router.post("/1.2/rtm/service-conversations/:conv_id/subscribers") { request, context in
            await respond(to: request) { body in
                let clientID = try RESTBody.string(try RESTBody.object(body, allowing: ["client_id"]), "client_id")
                try await core.setSubscribed(true, clientID: clientID, systemConversation: try context.parameters.require("conv_id"))
                return [:]
            }
        }
        router.delete("/1.2/rtm/service-conversations/:conv_id/subscribers/:client_id") { request, context in
            await respond(to: request) { _ in
                try await core.setSubscribed(
                    false, clientID: try context.parameters.require("client_id"), systemConversation: try context.parameters.require("conv_id")
                )
                return [:]
            }
        }
        router.post("/1.2/rtm/service-conversations/:conv_id/broadcasts") { request, context in
            await respond(to: request) { body in
                let (direct, from, _) = try Self.message(body, conversationID: try context.parameters.require("conv_id"), allowing: ["push"])
                return Self.sent(try await core.sendAsServer(direct, from: from, priority: nil))
            }
        }
        for (path, kind) in Self.conversationLists {
            router.get(RouterPath(path)) { request, _ in
                await respond(to: request) { _ in
                    let parameters = QueryParameters(request)
                    let conditions = try parameters.whereDocument()
                    let matching = try await core.conversationObjects(
                        where: kind.map { .object(["$and": .array([conditions, $0])]) } ?? conditions,
                        order: parameters["order"], skip: Int(clamping: try parameters.number("skip") ?? 0),
                        limit: Int(clamping: try parameters.number("limit") ?? 100)
                    )
                    return ["results": .array(matching)]
                }
            }
        }
        router.get("/1.2/rtm/conversations/:conv_id/members") { request, context in
            await respond(to: request) { _ in
                let id = try context.parameters.require("conv_id")
                guard let found = try await core.conversationObjects(where: ["objectId": .string(id)], order: nil, skip: 0, limit: 1).first else {
                    throw CommandError(.conversationNotFound, detail: "no such conversation \(id)")
                }
                return ["result": found["m"] ?? []]
            }
        }
        router.post("/1.2/rtm/clients/check-online") { request, _ in
            await respond(to: request) { body in
                let ids = (try RESTBody.object(body, allowing: ["client_ids"])["client_ids"]?.arrayValue ?? []).compactMap { $0.stringValue }
                guard ids.count <= 20 else { throw RESTFailure(message: "at most 20 client_ids") }
                return ["results": .array(ids.filter(core.presence.isOnline).map(JSONValue.string))]
            }
        }
        router.get("/1.2/rtm/clients/:client_id/unread-count") { request, context in
            await respond(to: request, appKeyAllowed: true) { _ in
                let count = try await core.unreadCount(of: try context.parameters.require("client_id"), conversationID: QueryParameters(request)["conv_id"])
                return ["count": .int(Int64(count))]
            }
        }
        router.post("/1.2/rtm/clients/:client_id/kick") { request, context in
            await respond(to: request) { body in
                let reason = try RESTBody.object(body, allowing: ["reason"])["reason"]?.stringValue
                await core.kick(try context.parameters.require("client_id"), reason: reason.map { String($0.prefix(20)) })
                return [:]
            }
        }
    }

    /// The conversation lists, each a `_Conversation` query narrowed to its kind (LeanCloud
    /// keeps temporary conversations apart; none of these lists them).
    static let conversationLists: [(String, JSONValue?)] = [
        ("/1.2/rtm/conversations", ["tr": false, "sys": false]),
        ("/1.2/rtm/chatrooms", ["tr": true]),
        ("/1.2/rtm/service-conversations", ["sys": true]),
        ("/1.2/rtm/all-conversations", nil),
    ]

    /// Checks the master key (or, where LeanCloud allows it, the app key), reads the JSON
    /// body (if any), runs `body` and answers with its JSON; refusals answer with LeanCloud's
    /// code and a message.
    private func respond(to request: Request, appKeyAllowed: Bool = false, _ answer: (JSONValue?) async throws -> JSONValue) async -> Response {
        let appKey = appKeyAllowed && request.header("X-LC-Key") == self.appKey
        guard request.header("X-LC-Id") == appID, appKey || isMaster(request) else {
            return RESTResponse.error(.unauthorized, code: 401, "Unauthorized.")
        }
        return await RESTResponse.answering { try await answer(try await Self.body(of: request)) }
    }

    private func isMaster(_ request: Request) -> Bool {
        if let key = request.header("X-LC-Key") { return key == masterKey + ",master" }
        if let signature = request.header("X-LC-Sign") { return RequestSignature.isValidMaster(signature, masterKey: masterKey) }
        return false
    }

    private static func body(of request: Request) async throws -> JSONValue? {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: maxBodyBytes)
        } catch {
            throw RESTFailure(message: "the body is more than \(maxBodyBytes) bytes")
        }
        guard buffer.readableBytes > 0 else { return nil }
        guard let value = try? JSONValue(parsing: String(buffer: buffer)) else { throw RESTFailure(message: "the body is not valid JSON") }
        return value
    }

    /// A send's fields (`from_client`, `message`, `transient`, `push_data`, `priority`,
    /// `mention_all`, `mention_client_ids`) as the `direct` command a client would send.
    private static func message(
        _ body: JSONValue?, conversationID: String, allowing extra: Set<String> = []
    ) throws -> (DirectCommand, String, MessagePriority?) {
        let known: Set<String> = [
            "from_client", "message", "transient", "no_sync", "push_data", "priority", "mention_all", "mention_client_ids",
        ]
        let fields = try RESTBody.object(body, allowing: known.union(extra))
        var direct = DirectCommand()
        direct.cid = conversationID
        direct.msg = try RESTBody.string(fields, "message")
        if fields["transient"]?.boolValue == true { direct.transient = true }
        if fields["mention_all"]?.boolValue == true { direct.mentionAll = true }
        direct.mentionPids = (fields["mention_client_ids"]?.arrayValue ?? []).compactMap { $0.stringValue }
        if let push = fields["push_data"] ?? fields["push"] { direct.pushData = push.stringValue ?? push.jsonString }
        var priority: MessagePriority?
        if let named = fields["priority"]?.stringValue {
            guard let known = ["high": MessagePriority.high, "normal": .normal, "low": .low][named.lowercased()] else {
                throw RESTFailure(message: "priority is high, normal or low")
            }
            priority = known
        }
        return (direct, try RESTBody.string(fields, "from_client"), priority)
    }

    private static func sent(_ message: (id: String, timestamp: Int64)) -> JSONValue {
        ["msg-id": .string(message.id), "timestamp": .int(message.timestamp)]
    }
}
