import SwitchboardWire

/// The conversation operations (see `ConversationOperations`) for the core's front doors
/// other than the WebSocket gateway: the REST API calls them as the app's server.
extension MessagingCore {
    /// The name the server acts in where LeanCloud's REST API names no client: the
    /// creator of what it creates, the `initBy` of what it changes.
    public static let serverClientID = "system"

    /// Starts a conversation or chat room, or with `unique` finds the one of the same members.
    public func startConversation(_ new: NewConversation, by caller: Caller) async throws -> StartedConversation {
        try await conversations.start(new, by: caller)
    }

    /// Adds members; those the conversation blocks are left out (4548) and listed in the result.
    public func addMembers(_ change: MembershipChange, by caller: Caller) async throws -> MembershipResult {
        try await conversations.add(change, by: caller)
    }

    public func removeMembers(_ change: MembershipChange, by caller: Caller) async throws -> MembershipResult {
        try await conversations.remove(change, by: caller)
    }

    /// Changes the name and attributes.
    public func updateConversation(_ update: ConversationUpdate, by caller: Caller) async throws -> UpdatedConversation {
        try await conversations.update(update, by: caller)
    }

    /// Mutes or unmutes a conversation for clients; returns it as saved.
    public func setMuted(_ change: MuteChange, by caller: Caller) async throws -> Conversation {
        try await conversations.setMuted(change, by: caller)
    }

    /// Gives a member a role; returns the conversation as saved.
    public func setRole(_ change: RoleChange, by caller: Caller) async throws -> Conversation {
        try await conversations.setRole(change, by: caller)
    }

    public func silence(_ change: SilenceChange, by caller: Caller) async throws -> ModerationResult {
        try await conversations.silence(change, by: caller)
    }

    public func setBlocked(_ change: BlockChange, by caller: Caller) async throws -> ModerationResult {
        try await conversations.setBlocked(change, by: caller)
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
