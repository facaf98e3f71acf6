import SwitchboardJSON
import SwitchboardWire

extension ConversationOperations {
    /// Starts a conversation or chat room, or with `unique` finds the one of the same
    /// members. A client starts it with itself among the members (a chat room with itself
    /// alone), signed where the app wants signatures; the app's server starts it in the
    /// caller's name, who owns it, with exactly the members named (a chat room with none).
    public func start(_ new: NewConversation, by caller: Caller) async throws -> StartedConversation {
        let clientID = caller.clientID
        try requireMemberLimit(new.members.count)
        try requireValidIDs(new.members)
        var members = Self.uniqued((caller.isClient ? [clientID] : []) + new.members)
        let name = new.attributes["name"]?.stringValue
        let custom = new.attributes.filter { !ConversationDocument.reservedKeys.contains($0.key) }
        if context.settings.signaturesRequired, caller.isClient {
            try await verifyStartSignature(new.signature, clientID: clientID, members: new.members)
        }
        let now = context.clock.now()
        let kind: Conversation.Kind
        var secondsLeft: Int32?
        switch new.kind {
        case .chatRoom:
            // A chat room: its creator joins it; others join with conv/add.
            kind = .transient
            members = caller.isClient ? [clientID] : []
        case .conversation:
            kind = .normal
        case .temporary(let ttl):
            kind = .temporary
            secondsLeft = ttl.map { min($0, context.settings.maxTemporaryConversationTTL) } ?? context.settings.temporaryConversationTTL
        }
        let uniqueKey = kind != .transient && new.unique ? Conversation.uniqueKey(for: members, temporary: kind == .temporary) : nil
        if let uniqueKey, var existing = try await context.store.conversation(uniqueKey: uniqueKey) {
            guard existing.isExpired(at: now) else { return Self.found(existing, now: now) }
            // An expired temporary conversation gives its members' key up to the new one.
            existing.uniqueKey = nil
            try await context.store.saveConversation(existing)
        }
        try requireMemberLimit(members.count)
        try await hooks.start(initBy: clientID, members: members, attr: new.attributes)

        let conversation = Conversation(
            id: kind == .temporary ? Identifiers.temporaryConversationID() : Identifiers.conversationID(),
            kind: kind,
            name: name,
            creator: clientID,
            members: members,
            attributes: custom,
            uniqueKey: uniqueKey,
            createdAt: now,
            updatedAt: now,
            expiresAt: secondsLeft.map { now + Int64($0) * 1000 }
        )
        do {
            try await context.store.createConversation(conversation)
        } catch where conversation.uniqueKey != nil {
            // Another client created the same unique conversation at the same moment.
            guard let key = conversation.uniqueKey, let existing = try await context.store.conversation(uniqueKey: key) else { throw error }
            return Self.found(existing, now: now)
        }
        context.logger.info("conversation started", metadata: ["conversation": "\(conversation.id)", "by": "\(clientID)", "members": "\(members.count)"])

        // A client that starts one knows; a creator the server names does not yet.
        await notifier.notify(
            caller.isClient ? members.filter { $0 != clientID } : members, Self.notice(.joined, in: conversation.id, by: clientID),
            permanent: !conversation.isTransient
        )
        await hooks.started(conversation.id)
        return StartedConversation(conversation: conversation, secondsLeft: secondsLeft)
    }

    /// A unique start that found its conversation: the one with the same members, and for a
    /// temporary conversation the seconds it has left.
    private static func found(_ existing: Conversation, now: Int64) -> StartedConversation {
        StartedConversation(conversation: existing, secondsLeft: existing.expiresAt.map { Int32(clamping: max(($0 - now) / 1000, 1)) }, existed: true)
    }

    private func verifyStartSignature(_ presented: SignatureCheck.Presented, clientID: String, members: [String]) async throws {
        try await context.signatures.verify(presented, failure: .conversationSignatureFailed) { timestamp, nonce in
            context.signatures.signer.startConversation(clientID: clientID, members: members, timestamp: timestamp, nonce: nonce)
        }
    }
}
