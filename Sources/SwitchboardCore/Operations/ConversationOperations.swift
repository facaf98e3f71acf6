import SwitchboardWire

/// What callers do to conversations: start them, add and remove members, change the name
/// and attributes, mute them, give roles, silence and block, each in a caller's name (a
/// client under the app's rules, or the app's server above every role). Hooks fire and
/// members are told the same whoever asks. The WebSocket gateway (`ConversationCommands`)
/// and the REST API are two adapters over these.
///
/// Each change reads the conversation, changes it and saves it whole, one at a time per
/// conversation (`locks`).
public struct ConversationOperations: Sendable {
    let context: CoreContext
    let notifier: Notifier
    let hooks: ConversationHooks
    let locks: ConversationLocks

    init(context: CoreContext, notifier: Notifier, hooks: ConversationHooks) {
        self.context = context
        self.notifier = notifier
        self.hooks = hooks
        locks = ConversationLocks(link: context.link)
    }

    /// A conversation that exists and has not expired; 4303 otherwise.
    public func existingConversation(_ id: String) async throws -> Conversation {
        guard !id.isEmpty, let conversation = try await context.store.conversation(id: id),
              !conversation.isExpired(at: context.clock.now())
        else {
            throw CommandError(.conversationNotFound, detail: "no such conversation \(id)")
        }
        return conversation
    }

    /// Deletes a conversation with its history. As on LeanCloud, its members are not told:
    /// their next send or query finds it gone.
    public func delete(_ conversationID: String) async throws {
        try await locks.withLock(conversationID) {
            let conversation = try await existingConversation(conversationID)
            try await context.store.deleteConversation(id: conversation.id)
            context.logger.info("conversation deleted", metadata: ["conversation": "\(conversation.id)", "members": "\(conversation.members.count)"])
        }
    }

    func requireValidIDs(_ ids: [String]) throws {
        guard ids.allSatisfy(ClientID.isValid) else { throw CommandError(.conversationAPIFailed, detail: ClientID.rule) }
    }

    /// One request names at most as many members as a conversation may have.
    func requireMemberLimit(_ count: Int) throws {
        guard count <= context.settings.maxMembers else {
            throw CommandError(.conversationFull, detail: "at most \(context.settings.maxMembers) members")
        }
    }

    /// The clients a mute, silence or block names, each once: valid ids, at least one, no
    /// more than a conversation's members.
    func namedClients(_ requested: [String]) throws -> [String] {
        try requireMemberLimit(requested.count)
        try requireValidIDs(requested)
        let clients = Self.uniqued(requested)
        guard !clients.isEmpty else { throw CommandError(.conversationAPIFailed, detail: "no clients given") }
        return clients
    }

    static func uniqued(_ ids: [String]) -> [String] {
        var seen = Set<String>()
        return ids.filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}
