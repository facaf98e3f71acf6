import Hummingbird
import SwitchboardCore
import SwitchboardData
import SwitchboardJSON

/// Conversations, chat rooms and system conversations: create, list, update, delete, and
/// their members.
enum ConversationRoutes {
    static let conversations = "/1.2/rtm/conversations"
    static let chatrooms = "/1.2/rtm/chatrooms"
    static let systemConversations = "/1.2/rtm/service-conversations"

    /// Each list is a `_Conversation` query narrowed to its kind (LeanCloud keeps temporary
    /// conversations apart; none of these lists them).
    static let lists: [(path: String, kind: JSONValue?, summary: String)] = [
        (conversations, ["tr": false, "sys": false], "Query one-to-one and group conversations"),
        (chatrooms, ["tr": true], "Query chat rooms"),
        (systemConversations, ["sys": true], "Query system conversations"),
        ("/1.2/rtm/all-conversations", nil, "Query conversations of every kind"),
    ]

    /// The kinds of conversation `{conv_id}` may be under each prefix; a route under none
    /// names no kind.
    private static let kindsByPrefix: [(prefix: String, kinds: Set<Conversation.Kind>)] = [
        (conversations, [.normal, .temporary]), (chatrooms, [.transient]), (systemConversations, [.system]),
    ]

    /// Refuses a conversation of a kind the route's path does not name (a group deleted as
    /// a chat room) as if it did not exist there. LeanCloud's docs do not say what it
    /// answers; this is what these routes answer for an unknown id: the core's 404 with
    /// 4303 (the sends, whose own check answers an unknown id 400 with 4401, answer a
    /// conversation of the wrong kind with 404 and 4303 too). An unknown id is left to the
    /// route. A conversation's history is read under `conversations` for any kind: it is
    /// the app's one way to read a whole system conversation's.
    static func requireKind(named route: RESTRoute, _ call: RESTCall, core: MessagingCore) async throws {
        guard !(route.method == .get && route.path.hasSuffix("/{conv_id}/messages")),
              let kinds = kindsByPrefix.first(where: { route.path.hasPrefix($0.prefix + "/{conv_id}") })?.kinds
        else { return }
        let id = call.path("conv_id")
        let conversation: Conversation
        do {
            conversation = try await core.conversations.existingConversation(id)
        } catch let error as CommandError where error.code == .conversationNotFound {
            return
        }
        guard kinds.contains(conversation.kind) else {
            throw CommandError(.conversationNotFound, detail: "no such conversation \(id)")
        }
    }

    static let listQuery: [RESTField] = [.string("where"), .string("order"), .integer("skip"), .integer("limit")]

    static func routes(_ core: MessagingCore) -> [RESTRoute] {
        var routes: [RESTRoute] = [
            RESTRoute(
                .post, conversations, "Create a conversation; any other field is a custom attribute",
                body: [.string("name"), .strings("m"), .boolean("unique"), .string("c")], moreFields: true
            ) { call in
                let created = try await create(call, core: core, transient: false)
                return try await object(created.id, core: core)
            },
            RESTRoute(.post, chatrooms, "Create a chat room; any other field is a custom attribute", body: [.string("name"), .string("c")], moreFields: true) { call in
                RESTAnswer.created(try await create(call, core: core, transient: true))
            },
            RESTRoute(.post, systemConversations, "Create a system conversation; any other field is a custom attribute", body: [.string("name")], moreFields: true) { call in
                var attributes = call.body
                let name = attributes.removeValue(forKey: "name")?.stringValue
                return RESTAnswer.created(try await core.createSystemConversation(name: name, attributes: attributes))
            },
            RESTRoute(.get, conversations + "/{conv_id}/members", "A conversation's members") { call in
                RESTAnswer.clients(try await core.conversations.existingConversation(call.path("conv_id")).members)
            },
            RESTRoute(
                .post, conversations + "/{conv_id}/members", "Add members; those the conversation blocks are left out, listed in failedPids",
                body: [.strings("client_ids", required: true)]
            ) { call in
                RESTAnswer.added(try await core.conversations.add(membership(call), by: server))
            },
            RESTRoute(.delete, conversations + "/{conv_id}/members", "Remove members", body: [.strings("client_ids", required: true)]) { call in
                RESTAnswer.updated(try await core.conversations.remove(membership(call), by: server).conversation)
            },
            RESTRoute(.get, conversations + "/{conv_id}/mutes", "The members who muted a conversation") { call in
                RESTAnswer.clients(try await core.conversations.existingConversation(call.path("conv_id")).mutedBy)
            },
            RESTRoute(.post, conversations + "/{conv_id}/mutes", "Mute a conversation for clients", body: [.strings("client_ids", required: true)]) { call in
                RESTAnswer.updated(try await core.conversations.setMuted(MuteChange(conversationID: call.path("conv_id"), clients: try call.strings("client_ids"), muted: true), by: server))
            },
            RESTRoute(.delete, conversations + "/{conv_id}/mutes", "Unmute a conversation for clients", body: [.strings("client_ids", required: true)]) { call in
                RESTAnswer.updated(try await core.conversations.setMuted(MuteChange(conversationID: call.path("conv_id"), clients: try call.strings("client_ids"), muted: false), by: server))
            },
            RESTRoute(.get, chatrooms + "/{conv_id}/members", "The members of a chat room online now") { call in
                let members = try await core.conversations.existingConversation(call.path("conv_id")).members
                let online = await core.online(among: members)
                return RESTAnswer.clients(members.filter(online.contains))
            },
            RESTRoute(.get, chatrooms + "/{conv_id}/members/online-count", "How many members of a chat room are online") { call in
                ["result": .int(Int64(await core.online(among: try await core.conversations.existingConversation(call.path("conv_id")).members).count))]
            },
        ]
        for list in lists {
            routes.append(RESTRoute(.get, list.path, list.summary, query: listQuery) { call in
                let conditions = try call.query.whereDocument()
                let matching = try await core.storedConversations.objects(
                    where: list.kind.map { .object(["$and": .array([conditions, $0])]) } ?? conditions,
                    order: call.query["order"], skip: Int(clamping: try call.query.number("skip") ?? 0),
                    limit: Int(clamping: try call.query.number("limit") ?? 100)
                )
                return ["results": .array(matching)]
            })
        }
        for prefix in [conversations, chatrooms, systemConversations] {
            routes.append(RESTRoute(.get, prefix + "/{conv_id}", "One conversation, as `_Conversation` has it") { call in
                try await object(call.path("conv_id"), core: core)
            })
            routes.append(RESTRoute(
                .put, prefix + "/{conv_id}", "Change the name and attributes (`attr.x` keys, `{\"__op\": \"Delete\"}`)", body: [.string("name")], moreFields: true
            ) { call in
                guard call.body["m"] == nil else { throw RESTFailure(message: "members change through /members") }
                let update = ConversationUpdate(conversationID: call.path("conv_id"), changes: call.body)
                return RESTAnswer.updated(try await core.conversations.update(update, by: server).conversation)
            })
            routes.append(RESTRoute(.delete, prefix + "/{conv_id}", "Delete a conversation with its history") { call in
                try await core.conversations.delete(call.path("conv_id"))
                return [:]
            })
        }
        return routes
    }

    /// The app's server, in the name LeanCloud's REST API gives it where it names no client.
    static let server = Caller.server(as: MessagingCore.serverClientID)

    /// A conversation or chat room from a create request's body: `name`, `m` (members), `c`
    /// (creator, who owns it; the server without one), `unique`, and its custom attributes.
    private static func create(_ call: RESTCall, core: MessagingCore, transient: Bool) async throws -> Conversation {
        var attributes = call.body
        for key in ["name", "m", "c", "unique"] { attributes.removeValue(forKey: key) }
        if let name = call.body["name"]?.stringValue { attributes["name"] = .string(name) }
        let new = NewConversation(
            kind: transient ? .chatRoom : .conversation, members: try call.body["m"] == nil ? [] : call.strings("m"),
            attributes: attributes, unique: call.body["unique"]?.boolValue ?? false
        )
        return try await core.conversations.start(new, by: .server(as: call.body["c"]?.stringValue ?? MessagingCore.serverClientID)).conversation
    }

    /// The clients of a members route.
    private static func membership(_ call: RESTCall) throws -> MembershipChange {
        MembershipChange(conversationID: call.path("conv_id"), clients: try call.strings("client_ids"))
    }

    /// A conversation as `_Conversation` has it.
    static func object(_ id: String, core: MessagingCore) async throws -> JSONValue {
        guard let found = try await core.storedConversations.objects(where: ["objectId": .string(id)], order: nil, skip: 0, limit: 1).first else {
            throw CommandError(.conversationNotFound, detail: "no such conversation \(id)")
        }
        return found
    }
}
