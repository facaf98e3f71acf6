import Hummingbird
import SwitchboardCore
import SwitchboardJSON

/// System conversations (LeanCloud's service conversations): subscribers, broadcasts to
/// them, and app-wide broadcasts to every client.
enum SystemConversationRoutes {
    /// An app-wide broadcast waits for devices at most this long, as on LeanCloud.
    static let maxBroadcastValidity: Int64 = 30 * 86_400_000

    static func routes(_ core: MessagingCore) -> [RESTRoute] {
        let subscribers = ConversationRoutes.systemConversations + "/{conv_id}/subscribers"
        return [
            RESTRoute(.post, subscribers, "Subscribe a client", body: [.string("client_id", required: true)]) { call in
                try await core.setSubscribed(true, clientID: try call.string("client_id"), systemConversation: call.path("conv_id"))
                return [:]
            },
            RESTRoute(.delete, subscribers + "/{client_id}", "Unsubscribe a client") { call in
                try await core.setSubscribed(false, clientID: call.path("client_id"), systemConversation: call.path("conv_id"))
                return [:]
            },
            RESTRoute(
                .get, subscribers, "Subscribers with when they subscribed, by client id, from just after client_id (at most 50)",
                query: [.integer("limit"), .string("client_id")]
            ) { call in
                let found = try await core.subscribers(of: call.path("conv_id"), after: call.query["client_id"], limit: try pageSize(call))
                return .array(found.map(subscription))
            },
            RESTRoute(
                .get, "/1.2/rtm/clients/{client_id}/service-conversations",
                "A client's subscriptions in the order it subscribed (direction new) or the reverse (old), from just past conv_id and its timestamp",
                query: [.string("conv_id"), .integer("timestamp"), .integer("limit"), .string("direction")]
            ) { call in
                var after: (Int64, String)?
                if let conversationID = call.query["conv_id"] {
                    guard let timestamp = try call.query.number("timestamp") else { throw RESTFailure(message: "timestamp is required with conv_id") }
                    after = (timestamp, conversationID)
                }
                let newestFirst: Bool
                switch call.query["direction"] ?? "new" {
                case "new": newestFirst = false
                case "old": newestFirst = true
                default: throw RESTFailure(message: "direction is new or old")
                }
                let found = try await core.subscriptions(of: call.path("client_id"), after: after, newestFirst: newestFirst, limit: try pageSize(call))
                return .array(found.map(subscription))
            },
            RESTRoute(.get, subscribers + "/count", "How many clients subscribe") { call in
                ["count": .int(Int64(try await core.conversations.existingConversation(call.path("conv_id")).members.count))]
            },
            RESTRoute(
                .post, ConversationRoutes.systemConversations + "/{conv_id}/messages", "Send to chosen clients (at most 20): only they see it",
                body: [
                    .string("from_client", required: true), .strings("to_clients", required: true), .string("message", required: true),
                    .boolean("transient"), .boolean("no_sync"), .stringOrObject("push_data"), .string("priority"),
                ],
                rateClass: .messages
            ) { call in
                let audience = try call.strings("to_clients")
                guard audience.count <= maxAudience else { throw RESTFailure(message: "to_clients names at most \(maxAudience) clients") }
                var message = try MessageRoutes.message(call, conversationID: call.path("conv_id"))
                message.toSender = call.body["no_sync"]?.boolValue != true
                return RESTAnswer.sent(try await core.sendToSubscribers(audience, message, by: .server(as: try call.string("from_client"))).message)
            },
            RESTRoute(
                .get, subscribers + "/{client_id}/messages", "What a subscriber sees: messages to every subscriber and to it, newest first",
                query: MessageRoutes.historyQuery
            ) { call in
                try await MessageRoutes.history(.conversation(call.path("conv_id")), reader: call.path("client_id"), call, core)
            },
            RESTRoute(
                .delete, subscribers + "/{client_id}/messages/{message_id}", "Delete a message for one subscriber (clients keep theirs)",
                query: [.string("from_client", required: true), .integer("timestamp", required: true)]
            ) { call in
                try await core.deleteMessage(
                    call.path("message_id"), in: call.path("conv_id"), for: call.path("client_id"),
                    from: try call.queryString("from_client"), sentAt: try call.number("timestamp")
                )
                return [:]
            },
            RESTRoute(
                .post, ConversationRoutes.systemConversations + "/{conv_id}/broadcasts", "Send to every subscriber",
                body: [.string("from_client", required: true), .string("message", required: true), .stringOrObject("push")],
                rateClass: .subscriberBroadcasts
            ) { call in
                let message = try MessageRoutes.message(call, conversationID: call.path("conv_id"))
                return RESTAnswer.sent(try await core.sending.send(message, by: .server(as: try call.string("from_client"))).message)
            },
            RESTRoute(
                .post, "/1.2/rtm/broadcasts", "Send a system conversation's message to every client, online now or logging in before valid_till",
                body: [
                    .string("from_client", required: true), .string("conv_id", required: true), .string("message", required: true),
                    .integer("valid_till"), .boolean("transient"), .stringOrObject("push"),
                ],
                rateClass: .broadcasts
            ) { call in
                let now = core.clock.now()
                let validTill = call.body["valid_till"] == nil ? now + maxBroadcastValidity : try call.number("valid_till")
                guard validTill > now, validTill <= now + maxBroadcastValidity else {
                    throw RESTFailure(message: "valid_till is a time (milliseconds) within the next 30 days")
                }
                return RESTAnswer.sent(try await core.broadcast(
                    try call.string("message"), from: try call.string("from_client"), systemConversation: try call.string("conv_id"),
                    validTill: validTill, transient: call.body["transient"]?.boolValue == true, push: call.body["push"]
                ))
            },
            RESTRoute(.get, "/1.2/rtm/broadcasts", "A system conversation's broadcasts still valid, oldest first", query: [
                .string("conv_id", required: true), .integer("skip"), .integer("limit"),
            ]) { call in
                let found = try await core.broadcasts(
                    of: try call.queryString("conv_id"), skip: Int(clamping: try call.query.number("skip") ?? 0), limit: Int(clamping: try call.query.number("limit") ?? 100)
                )
                return .array(found.map { RESTMessage.json($0, isRoom: false) })
            },
            RESTRoute(.delete, "/1.2/rtm/broadcasts/{message_id}", "Stop a broadcast reaching the devices that have not had it") { call in
                try await core.deleteBroadcast(call.path("message_id"))
                return [:]
            },
        ]
    }

    /// LeanCloud sends one message to at most 20 chosen clients.
    static let maxAudience = 20

    /// LeanCloud lists at most 50 subscriptions at a time, and that many by default.
    static let maxSubscriptionPage = 50

    private static func pageSize(_ call: RESTCall) throws -> Int {
        Int(clamping: min(max(try call.query.number("limit") ?? Int64(maxSubscriptionPage), 1), Int64(maxSubscriptionPage)))
    }

    /// LeanCloud's subscription record.
    private static func subscription(_ membership: Membership) -> JSONValue {
        ["timestamp": .int(membership.joinedAt), "subscriber": .string(membership.clientID), "conv_id": .string(membership.conversationID)]
    }
}
