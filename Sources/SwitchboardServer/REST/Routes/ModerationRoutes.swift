import Hummingbird
import SwitchboardCore
import SwitchboardJSON

/// Roles (`member-infos`), silenced members (for good or for a while) and blacklists of
/// conversations and chat rooms (blacklists of system conversations too, and a client's
/// blacklist of conversations).
enum ModerationRoutes {
    static func routes(_ core: MessagingCore) -> [RESTRoute] {
        let prefixes = [ConversationRoutes.conversations, ConversationRoutes.chatrooms]
        return prefixes.flatMap { roles($0, core) + silenced($0, core) }
            + (prefixes + [ConversationRoutes.systemConversations]).flatMap { blacklist($0, core) } + clientBlacklist(core)
    }

    private static func roles(_ prefix: String, _ core: MessagingCore) -> [RESTRoute] {
        let infos = prefix + "/{conv_id}/member-infos"
        return [
            RESTRoute(.get, infos, "Members with a role (owner, managers)", query: [.string("role"), .integer("skip"), .integer("limit")]) { call in
                let role = call.query["role"]
                let rows = MessagingCore.memberInfoObjects(of: try await core.conversations.existingConversation(call.path("conv_id")))
                    .filter { role == nil || $0["role"]?.stringValue == role }
                let skip = Int(clamping: try call.query.number("skip") ?? 0)
                let limit = Int(clamping: try call.query.number("limit") ?? 100)
                return ["results": .array(Array(rows.dropFirst(skip).prefix(limit)))]
            },
            RESTRoute(.post, infos, "Give a member a role", body: [.string("clientId", required: true), .string("role", required: true)]) { call in
                try await give(try role(call), to: try call.string("clientId"), call, core)
            },
            RESTRoute(.put, infos + "/{info_id}", "Change a member's role", body: [.string("clientId"), .string("role", required: true)]) { call in
                try await give(try role(call), to: try await holder(call, core), call, core)
            },
            RESTRoute(.delete, infos + "/{info_id}", "Take a member's role away") { call in
                let member = try await holder(call, core)
                _ = try await core.conversations.setRole(RoleChange(conversationID: call.path("conv_id"), member: member, role: .member), by: ConversationRoutes.server)
                return [:]
            },
        ]
    }

    /// LeanCloud silences for at most a day at a time.
    static let maxSilenceSeconds: Int64 = 86_400

    private static func silenced(_ prefix: String, _ core: MessagingCore) -> [RESTRoute] {
        let path = prefix + "/{conv_id}/permanent-silenceds"
        let temporary = prefix + "/{conv_id}/temporary-silenceds"
        return [
            RESTRoute(.post, temporary, "Silence a member for ttl seconds (at most a day)", body: [
                .string("client_id", required: true), .integer("ttl", required: true),
            ]) { call in
                let seconds = try call.number("ttl")
                guard (1...maxSilenceSeconds).contains(seconds) else { throw RESTFailure(message: "ttl is 1 to \(maxSilenceSeconds) seconds") }
                _ = try await core.conversations.silence(
                    SilenceChange(conversationID: call.path("conv_id"), clients: [try call.string("client_id")], action: .silenceFor(seconds: seconds)),
                    by: ConversationRoutes.server
                )
                return [:]
            },
            RESTRoute(.delete, temporary, "Let a member silenced for a while speak again", query: [.string("client_id", required: true)]) { call in
                _ = try await core.conversations.silence(
                    SilenceChange(conversationID: call.path("conv_id"), clients: [try call.queryString("client_id")], action: .liftTimed), by: ConversationRoutes.server
                )
                return [:]
            },
        ] + clientList(
            path, core, summaries: ("Silenced members, a page at a time", "Silence members", "Let silenced members speak again"),
            list: \.silenced, change: { id, clients, adding in
                _ = try await core.conversations.silence(SilenceChange(conversationID: id, clients: clients, action: adding ? .silence : .lift), by: ConversationRoutes.server)
            }
        )
    }

    private static func blacklist(_ prefix: String, _ core: MessagingCore) -> [RESTRoute] {
        clientList(
            prefix + "/{conv_id}/blacklists", core, summaries: ("Blocked clients, a page at a time", "Block clients: members among them leave", "Unblock clients"),
            list: \.blocked, change: { id, clients, adding in
                _ = try await core.conversations.setBlocked(BlockChange(conversationID: id, clients: clients, blocked: adding), by: ConversationRoutes.server)
            }
        )
    }

    /// A client's blacklist of conversations: LeanCloud's client blocking a group, chat room
    /// or system conversation so that nobody adds it there. Here that is the conversation's
    /// own blacklist naming the client, the one relation that keeps a client out (4548), so
    /// POST and DELETE block and unblock the client there (a member leaves, as with the
    /// conversation's blacklist) and GET lists the conversations whose blacklist has it.
    private static func clientBlacklist(_ core: MessagingCore) -> [RESTRoute] {
        let path = "/1.2/rtm/clients/{client_id}/blacklists"
        return [
            RESTRoute(.get, path, "Conversations a client blocked, a page at a time", query: [.integer("limit"), .string("next")]) { call in
                try page(of: try await core.conversationIDs(blocking: call.path("client_id")), call, key: "conv_ids")
            },
        ] + [(HTTPRequest.Method.post, "Block a conversation for a client: nobody adds it there", true), (.delete, "Unblock a conversation for a client", false)]
            .map { method, summary, blocking in
                RESTRoute(method, path, summary, body: [.string("conv_id", required: true)]) { call in
                    let change = BlockChange(conversationID: try call.string("conv_id"), clients: [call.path("client_id")], blocked: blocking)
                    _ = try await core.conversations.setBlocked(change, by: ConversationRoutes.server)
                    return [:]
                }
            }
    }

    /// A list of clients kept by a conversation: read a page at a time, added to (POST) and
    /// taken from (DELETE) with `client_ids`.
    private static func clientList(
        _ path: String, _ core: MessagingCore, summaries: (list: String, add: String, remove: String),
        list: KeyPath<Conversation, [String]> & Sendable,
        change: @escaping @Sendable (_ conversationID: String, _ clients: [String], _ adding: Bool) async throws -> Void
    ) -> [RESTRoute] {
        [
            RESTRoute(.get, path, summaries.list, query: [.integer("limit"), .string("next")]) { call in
                try page(of: try await core.conversations.existingConversation(call.path("conv_id"))[keyPath: list], call, key: "client_ids")
            },
        ] + [(HTTPRequest.Method.post, summaries.add, true), (.delete, summaries.remove, false)].map { method, summary, adding in
            RESTRoute(method, path, summary, body: [.strings("client_ids", required: true)]) { call in
                try await change(call.path("conv_id"), try call.strings("client_ids"), adding)
                return [:]
            }
        }
    }

    private static func role(_ call: RESTCall) throws -> MemberRole {
        guard let role = MemberRole(rawValue: try call.string("role")) else { throw RESTFailure(message: "role is Member, Manager or Owner") }
        return role
    }

    /// Gives `member` `role`, answering as LeanCloud documents it: the member-info record's
    /// id (the one GET lists and DELETE takes) and when the conversation changed.
    ///
    /// LeanCloud lists Owner among the roles, and its guide says a conversation's owner
    /// cannot be changed; here the creator is the owner for good (the core keeps no other).
    /// So Owner is taken for the owner alone, changing nothing, and refused for anyone else
    /// with 4320, as the core refuses a change of the owner's own role.
    private static func give(_ role: MemberRole, to member: String, _ call: RESTCall, _ core: MessagingCore) async throws -> JSONValue {
        let conversation: Conversation
        if role == .owner {
            conversation = try await core.conversations.existingConversation(call.path("conv_id"))
            guard member == conversation.creator else {
                throw CommandError(.conversationOperationUnauthorized, detail: "\(conversation.creator) owns \(conversation.id) for good: the owner does not change")
            }
        } else {
            conversation = try await core.conversations.setRole(RoleChange(conversationID: call.path("conv_id"), member: member, role: role), by: ConversationRoutes.server)
        }
        return [
            "objectId": .string(Identifiers.memberInfoID(conversationID: conversation.id, clientID: member)),
            "updatedAt": .string(ISODate.string(milliseconds: conversation.updatedAt)),
        ]
    }

    /// The member a `member-infos/{info_id}` row is of.
    private static func holder(_ call: RESTCall, _ core: MessagingCore) async throws -> String {
        let conversation = try await core.conversations.existingConversation(call.path("conv_id"))
        let id = call.path("info_id")
        guard let member = conversation.members.first(where: { Identifiers.memberInfoID(conversationID: conversation.id, clientID: $0) == id }) else {
            throw CommandError(.conversationMembershipRequired, detail: "no member info \(id) in \(conversation.id)")
        }
        return member
    }

    /// A page of `list` under `key`, with LeanCloud's `next` when there is more.
    private static func page(of list: [String], _ call: RESTCall, key: String) throws -> JSONValue {
        let (page, next) = try ListPage.of(list, limit: try call.query.number("limit").map { Int(clamping: $0) }, next: call.query["next"])
        var answer: [String: JSONValue] = [key: .array(page.map(JSONValue.string))]
        if let next { answer["next"] = .string(next) }
        return .object(answer)
    }
}
