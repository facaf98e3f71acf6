import SwitchboardJSON
import SwitchboardWire

/// Conversations as the app's server manages them through the REST API. Each change runs
/// the client command it stands for, in the server's name and above every role, so hooks
/// fire and members are told exactly as when a client does it.
extension MessagingCore {
    /// The name the server acts in where LeanCloud's REST API names no client: the
    /// creator of what it creates, the `initBy` of what it changes.
    public static let serverClientID = "system"

    /// A change the server makes to a conversation.
    public enum ServerConversationChange: Sendable {
        case addMembers([String])
        case removeMembers([String])
        /// Name and attributes, as `conv/update` takes them (`attr.x`, `{"__op": "Delete"}`).
        case update([String: JSONValue])
        case silence([String], Bool)
        /// Silences a member for some seconds; nil lifts it.
        case silenceFor(String, seconds: Int64?)
        case block([String], Bool)
        case setRole(String, MemberRole)
        case mute([String], Bool)
    }

    /// A new conversation (or chat room, `transient`), through `conv/start`: its hooks and
    /// `joined` notices. `creator` owns it; without one the server does. `unique` finds the
    /// existing conversation of the same members instead.
    public func createConversation(
        creator: String?, members: [String], name: String?, attributes: [String: JSONValue], unique: Bool, transient: Bool
    ) async throws -> Conversation {
        var request = GenericCommand()
        request.cmd = .conv
        request.op = .start
        request.convMessage.m = members
        request.convMessage.unique = unique
        request.convMessage.transient = transient
        var attr = attributes
        if let name { attr["name"] = .string(name) }
        if !attr.isEmpty { request.convMessage.attr.data = JSONValue.object(attr).jsonString }
        let reply = try await conversations.start(request, from: creator ?? Self.serverClientID, byServer: true)
        return try await conversations.existingConversation(reply.convMessage.cid)
    }

    /// Applies `change` and returns the conversation as saved.
    public func changeConversation(_ id: String, _ change: ServerConversationChange) async throws -> Conversation {
        try await apply(change, to: id).conversation
    }

    /// Adds members and returns the conversation as saved with the clients left out and
    /// why, as `conv/add` reports them in `failedPids` (4548 for those it blocks).
    public func addMembers(_ clients: [String], to id: String) async throws -> (conversation: Conversation, failed: [ErrorCommand]) {
        let (conversation, reply) = try await apply(.addMembers(clients), to: id)
        return (conversation, reply?.convMessage.failedPids ?? [])
    }

    /// Runs `change` as the client command it stands for; the command's reply, nil for a
    /// change that is no command.
    private func apply(_ change: ServerConversationChange, to id: String) async throws -> (conversation: Conversation, reply: GenericCommand?) {
        var request = GenericCommand()
        request.cmd = .conv
        request.convMessage.cid = id
        switch change {
        case .addMembers(let clients):
            request.op = .add
            request.convMessage.m = clients
        case .removeMembers(let clients):
            request.op = .remove
            request.convMessage.m = clients
        case .update(let changes):
            request.op = .update
            request.convMessage.attr.data = JSONValue.object(changes).jsonString
        case .silence(let clients, let silenced):
            request.op = silenced ? .addShutup : .removeShutup
            request.convMessage.m = clients
        case .block(let clients, let blocked):
            request.cmd = .blacklist
            request.op = blocked ? .block : .unblock
            request.blacklistMessage.srcCid = id
            request.blacklistMessage.toPids = clients
        case .setRole(let clientID, let role):
            request.op = .memberInfoUpdate
            request.convMessage.info.pid = clientID
            request.convMessage.info.role = role.rawValue
        case .mute(let clients, let muted):
            return (try await conversations.setMuted(muted, by: clients, conversationID: id), nil)
        case .silenceFor(let clientID, let seconds):
            return (try await conversations.silence(clientID, for: seconds, conversationID: id, by: Self.serverClientID), nil)
        }
        let reply = try await conversations.change(request, from: Self.serverClientID, byServer: true)
        return (try await conversations.existingConversation(id), reply)
    }

    /// The ids of the conversations that block `clientID`, in order.
    public func conversationIDs(blocking clientID: String) async throws -> [String] {
        try await context.store.conversationIDs(blocking: clientID)
    }

    /// A conversation of any kind, for the server's eyes.
    public func conversation(_ id: String) async throws -> Conversation {
        try await conversations.existingConversation(id)
    }

    public func deleteConversation(_ id: String) async throws {
        try await conversations.delete(id)
    }

    /// Edits or recalls a message (see `MessageEditing`); returns it as changed.
    public func changeMessage(_ change: MessageChange, by caller: Caller) async throws -> Message {
        try await editing.change(change, by: caller)
    }

    /// Deletes `from`'s message sent at `timestamp` from the server; clients that have it keep it.
    public func deleteMessage(_ id: String, in conversationID: String, from: String, sentAt timestamp: Int64) async throws {
        guard let message = try await context.store.message(id: id), message.conversationID == conversationID,
              message.from == from, message.timestamp == timestamp
        else {
            throw CommandError(.messageNotFound, detail: "no message \(id) from \(from) at \(timestamp) in \(conversationID)")
        }
        try await context.store.deleteMessage(id: id)
        context.logger.info("message deleted", metadata: ["message": "\(id)", "conversation": "\(conversationID)"])
    }

    /// Deletes a system conversation's message for one subscriber: the others who had it
    /// keep it; the message goes once nobody is left to see it.
    public func deleteMessage(_ id: String, in conversationID: String, for clientID: String, from: String, sentAt timestamp: Int64) async throws {
        guard var message = try await context.store.message(id: id), message.conversationID == conversationID,
              message.from == from, message.timestamp == timestamp,
              let conversation = try await context.store.conversation(id: conversationID), conversation.kind == .system
        else {
            throw CommandError(.messageNotFound, detail: "no message \(id) from \(from) at \(timestamp) in system conversation \(conversationID)")
        }
        let audience = conversation.recipients(of: message).filter { $0 != clientID }
        if audience.isEmpty {
            try await context.store.deleteMessage(id: id)
        } else {
            message.audience = audience
            try await context.store.updateMessage(message)
        }
        context.logger.info("message deleted for a subscriber", metadata: ["message": "\(id)", "client": "\(clientID)", "left": "\(audience.count)"])
    }
}
