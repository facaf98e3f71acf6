import Hummingbird
import SwitchboardCore
import SwitchboardJSON

/// Clients: who is online, how many, unread counts, kicking one off.
enum ClientRoutes {
    /// LeanCloud answers for at most this many clients at once.
    static let maxOnlineCheck = 20

    static func routes(_ core: MessagingCore) -> [RESTRoute] {
        [
            RESTRoute(.post, "/1.2/rtm/clients/check-online", "Which of up to 20 clients are online", body: [.strings("client_ids", required: true)]) { call in
                let ids = try call.strings("client_ids")
                guard ids.count <= maxOnlineCheck else { throw RESTFailure(message: "at most \(maxOnlineCheck) client_ids") }
                let online = await core.online(among: ids)
                return ["results": .array(ids.filter(online.contains).map(JSONValue.string))]
            },
            RESTRoute(
                .get, "/1.2/rtm/clients/{client_id}/unread-count", "Messages a client has not read, in one conversation or all",
                query: [.string("conv_id")], appKeyAllowed: true
            ) { call in
                ["count": .int(Int64(try await core.unreadCount(of: call.path("client_id"), conversationID: call.query["conv_id"])))]
            },
            RESTRoute(.get, "/1.2/rtm/stats", "Clients online now, and online at some time today (UTC)") { _ in
                let counts = try await core.clientCounts()
                return ["result": ["online_user_count": .int(Int64(counts.online)), "user_count_today": .int(Int64(counts.today))]]
            },
            RESTRoute(.post, "/1.2/rtm/clients/{client_id}/kick", "End every session of a client", body: [.string("reason")]) { call in
                await core.kick(call.path("client_id"), reason: call.body["reason"]?.stringValue.map { String($0.prefix(20)) })
                return [:]
            },
        ]
    }
}
