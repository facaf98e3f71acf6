import Hummingbird
import SwitchboardCore
import SwitchboardJSON

/// System conversations (LeanCloud's service conversations): subscribers and broadcasts to them.
enum SystemConversationRoutes {
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
            RESTRoute(.get, subscribers + "/count", "How many clients subscribe") { call in
                ["count": .int(Int64(try await core.conversation(call.path("conv_id")).members.count))]
            },
            RESTRoute(
                .post, ConversationRoutes.systemConversations + "/{conv_id}/broadcasts", "Send to every subscriber",
                body: [.string("from_client", required: true), .string("message", required: true), .stringOrObject("push")]
            ) { call in
                let (direct, _) = try MessageRoutes.message(call, conversationID: call.path("conv_id"))
                return RESTAnswer.sent(try await core.sendAsServer(direct, from: try call.string("from_client"), priority: nil))
            },
        ]
    }
}
