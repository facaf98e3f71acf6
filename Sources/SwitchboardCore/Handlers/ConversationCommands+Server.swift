import SwitchboardWire

/// What only the app's server does to conversations (REST API): mute one for other clients,
/// silence a member for a while, delete one.
extension ConversationCommands {
    /// The REST API's `mutes`: each client mutes or unmutes the conversation as with its own
    /// `conv/mute` (and `_conversationUpdate` decides for each). Returns the saved conversation.
    func setMuted(_ muted: Bool, by clientIDs: [String], conversationID: String) async throws -> Conversation {
        try requireMemberLimit(clientIDs.count)
        try requireValidIDs(clientIDs)
        let clients = Self.uniqued(clientIDs)
        guard !clients.isEmpty else { throw CommandError(.conversationAPIFailed, detail: "no clients given") }
        return try await locks.withLock(conversationID) {
            var conversation = try await existingConversation(conversationID)
            try await mute(muted, by: clients, in: &conversation)
            return conversation
        }
    }

    /// Silences `clientID` for `seconds` (or, with nil, lifts that), in `requester`'s name;
    /// members hear it as they hear `add_shutup` and `remove_shutup`.
    func silence(_ clientID: String, for seconds: Int64?, conversationID: String, by requester: String) async throws -> Conversation {
        try requireValidIDs([clientID])
        return try await locks.withLock(conversationID) {
            var conversation = try await existingConversation(conversationID)
            let now = ServerClock.wallMilliseconds()
            conversation.silencedUntil = conversation.silencedUntil.filter { $0.value > now }
            conversation.silencedUntil[clientID] = seconds.map { now + $0 * 1000 }
            conversation.updatedAt = now
            try await context.store.saveConversation(conversation)
            await announce(
                [clientID], of: conversation, by: requester,
                own: seconds == nil ? .unshutuped : .shutuped, others: seconds == nil ? .membersUnshutuped : .membersShutuped
            )
            return conversation
        }
    }

    /// Deletes a conversation with its history. As on LeanCloud, its members are not told:
    /// their next send or query finds it gone.
    func delete(_ conversationID: String) async throws {
        try await locks.withLock(conversationID) {
            let conversation = try await existingConversation(conversationID)
            try await context.store.deleteConversation(id: conversation.id)
            context.logger.info("conversation deleted", metadata: ["conversation": "\(conversation.id)", "members": "\(conversation.members.count)"])
        }
    }
}
