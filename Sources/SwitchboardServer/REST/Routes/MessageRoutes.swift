import Hummingbird
import SwitchboardCore
import SwitchboardJSON

/// Messages: send as any client, read history (a conversation's, a client's, the app's),
/// edit, recall and delete.
enum MessageRoutes {
    static let sendFields: [RESTField] = [
        .string("from_client", required: true), .string("message", required: true), .boolean("transient"), .boolean("no_sync"),
        .stringOrObject("push_data"), .string("priority"), .boolean("mention_all"), .strings("mention_client_ids"),
    ]

    static let historyQuery: [RESTField] = [
        .integer("timestamp"), .string("msgid"), .integer("till_timestamp"), .string("till_msgid"), .boolean("include_start"),
        .boolean("include_stop"), .boolean("reversed"), .integer("limit"),
    ]

    static func routes(_ core: MessagingCore) -> [RESTRoute] {
        var routes: [RESTRoute] = [
            RESTRoute(.get, "/1.2/rtm/clients/{client_id}/messages", "Messages a client sent, newest first", query: historyQuery) { call in
                try await history(.sender(call.path("client_id")), call, core)
            },
            RESTRoute(.get, "/1.2/rtm/messages", "Every conversation's messages, newest first", query: historyQuery) { call in
                try await history(.app, call, core)
            },
        ]
        for prefix in [ConversationRoutes.conversations, ConversationRoutes.chatrooms] {
            let messages = prefix + "/{conv_id}/messages"
            routes += [
                RESTRoute(.post, messages, "Send a message as any client, member or not", body: sendFields, rateClass: .messages) { call in
                    var message = try message(call, conversationID: call.path("conv_id"))
                    message.toSender = call.body["no_sync"]?.boolValue != true
                    return RESTAnswer.sent(try await core.sending.send(message, by: .server(as: try call.string("from_client"))).message)
                },
                RESTRoute(.get, messages, "A conversation's messages, newest first", query: historyQuery) { call in
                    try await history(.conversation(call.path("conv_id")), call, core)
                },
                RESTRoute(.delete, messages + "/{message_id}", "Delete a message from the server (clients keep theirs)", query: [
                    .string("from_client", required: true), .integer("timestamp", required: true),
                ]) { call in
                    try await core.deleteMessage(
                        call.path("message_id"), in: call.path("conv_id"), from: try call.queryString("from_client"), sentAt: try call.number("timestamp")
                    )
                    return [:]
                },
            ]
        }
        for prefix in [ConversationRoutes.conversations, ConversationRoutes.chatrooms, ConversationRoutes.systemConversations] {
            let message = prefix + "/{conv_id}/messages/{message_id}"
            // LeanCloud names a system conversation's message to chosen subscribers by them
            // too; the message knows whom it went to, and they are the ones told.
            let toClients: [RESTField] = prefix == ConversationRoutes.systemConversations ? [.strings("to_clients")] : []
            // LeanCloud counts a system conversation's edits and recalls with its broadcasts
            // to subscribers; the route cannot tell those from messages to chosen clients.
            let rateClass: RESTRateClass = prefix == ConversationRoutes.systemConversations ? .subscriberBroadcasts : .messages
            routes += [
                RESTRoute(.put, message, "Edit a message in its sender's name", body: [
                    .string("from_client", required: true), .string("message", required: true), .integer("timestamp", required: true),
                ] + toClients, rateClass: rateClass) { call in
                    try await change(call, core, content: try call.string("message"))
                },
                RESTRoute(.put, message + "/recall", "Recall a message in its sender's name", body: [
                    .string("from_client", required: true), .integer("timestamp", required: true),
                ] + toClients, rateClass: rateClass) { call in
                    try await change(call, core, content: nil)
                },
            ]
        }
        return routes
    }

    static func history(_ scope: HistoryQuery.Scope, reader: String? = nil, _ call: RESTCall, _ core: MessagingCore) async throws -> JSONValue {
        let query = try HistoryParameters(parameters: call.query).query(scope, reader: reader)
        let (page, conversations) = try await core.history(query)
        // The store pages oldest first; LeanCloud lists newest first unless reversed.
        let listed = query.direction == .older ? page.reversed() : page
        return .array(listed.map { RESTMessage.json($0, isRoom: conversations[$0.conversationID]?.isTransient ?? false) })
    }

    private static func change(_ call: RESTCall, _ core: MessagingCore, content: String?) async throws -> JSONValue {
        let sender = try call.string("from_client")
        let change = MessageChange(
            messageID: call.path("message_id"), conversationID: call.path("conv_id"), sentAt: try call.number("timestamp"), content: content.map { .text($0) }
        )
        _ = try await core.editing.change(change, by: .server(as: sender))
        return [:]
    }

    /// The message a send's fields ask for.
    static func message(_ call: RESTCall, conversationID: String) throws -> OutgoingMessage {
        var message = OutgoingMessage(conversationID: conversationID, content: .text(try call.string("message")))
        if call.body["transient"]?.boolValue == true { message.transient = true }
        if call.body["mention_all"]?.boolValue == true { message.mentionAll = true }
        message.mentionPids = (call.body["mention_client_ids"]?.arrayValue ?? []).compactMap { $0.stringValue }
        if let push = call.body["push_data"] ?? call.body["push"] { message.pushData = push.stringValue ?? push.jsonString }
        if let named = call.body["priority"]?.stringValue {
            guard let known = ["high": MessagePriority.high, "normal": .normal, "low": .low][named.lowercased()] else {
                throw RESTFailure(message: "priority is high, normal or low")
            }
            message.priority = known
        }
        return message
    }
}
