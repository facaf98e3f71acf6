import SwitchboardWire

extension ConversationOperations {
    /// Adds clients, or with a client naming itself alone, joins it. Clients the
    /// conversation blocks are left out (4548) and the others added. A client invites as a
    /// member, to a conversation it may find, signed where the app wants signatures (a
    /// private conversation's signed join is how an outsider learns of it); the app's server
    /// adds to any conversation.
    public func add(_ change: MembershipChange, by caller: Caller) async throws -> MembershipResult {
        try await locks.withLock(change.conversationID) {
            let clientID = caller.clientID
            var (conversation, requested, joiningSelf) = try await membershipChange(change, by: clientID)
            try requireValidIDs(requested)
            let isMember = conversation.members.contains(clientID)
            let signedJoin = joiningSelf && !isMember && context.access.joiningRequiresSignature(conversation)
            // A private conversation's signed join is how an outsider learns of it.
            guard !caller.isClient || context.access.isVisible(conversation, to: clientID) || (signedJoin && change.signature.signature != nil) else {
                throw CommandError(.conversationNotFound, detail: "no such conversation \(conversation.id)")
            }
            if !joiningSelf { try conversation.requireMember(caller) }
            if conversation.isTemporary, !joiningSelf {
                throw CommandError(.conversationNotAllowed, detail: "temporary conversations keep their members")
            }
            if caller.isClient, context.settings.signaturesRequired || signedJoin {
                try await verifyMemberSignature(change, clientID: clientID, members: requested, action: .invite)
            }
            let refused = requested.filter(conversation.blocked.contains)
            let added = requested.filter { !conversation.members.contains($0) && !refused.contains($0) }
            guard conversation.members.count + added.count <= context.settings.maxMembers else {
                throw CommandError(.conversationFull, detail: "at most \(context.settings.maxMembers) members")
            }
            if !added.isEmpty {
                try await hooks.changeMembers(.add, initBy: clientID, members: added, conversationID: conversation.id)
                conversation.members += added
                conversation.updatedAt = context.clock.now()
                try await context.store.saveConversation(conversation)
                await announceMembership(of: conversation, changed: added, by: clientID, joined: true)
                await hooks.membersChanged(.add, initBy: clientID, members: added, conversationID: conversation.id)
            }
            let refusals = refused.isEmpty ? [] : [Refusal(clients: refused, error: CommandError(.blockedByConversation, detail: "blocked in \(conversation.id)"))]
            return MembershipResult(conversation: conversation, allowed: requested.filter { !refused.contains($0) }, refused: refusals)
        }
    }

    /// Removes clients, or with a client naming itself alone, leaves. A client removes as a
    /// member, signed where the app wants signatures, and only those ranked below it (the
    /// others are left out, see `Conversation.removalRefusals`); the app's server removes
    /// anyone.
    public func remove(_ change: MembershipChange, by caller: Caller) async throws -> MembershipResult {
        try await locks.withLock(change.conversationID) {
            let clientID = caller.clientID
            var (conversation, requested, leavingSelf) = try await membershipChange(change, by: clientID)
            if !leavingSelf {
                try conversation.requireMember(caller)
                if caller.isClient, context.settings.signaturesRequired {
                    try await verifyMemberSignature(change, clientID: clientID, members: requested, action: .kick)
                }
            }
            let refusals = conversation.removalRefusals(requested, by: caller)
            let refused = refusals.flatMap(\.clients)
            let removed = requested.filter { conversation.members.contains($0) && !refused.contains($0) }
            if !removed.isEmpty {
                // A member leaving by itself is not the app's to refuse.
                if !leavingSelf {
                    try await hooks.changeMembers(.remove, initBy: clientID, members: removed, conversationID: conversation.id)
                }
                // Announce to the members before they go, so the removed ones hear it too.
                let before = conversation
                conversation.removeMembers(removed)
                conversation.updatedAt = context.clock.now()
                try await context.store.saveConversation(conversation)
                await announceMembership(of: before, changed: removed, by: clientID, joined: false)
                await hooks.membersChanged(.remove, initBy: clientID, members: removed, conversationID: conversation.id)
            }
            return MembershipResult(conversation: conversation, allowed: requested.filter { !refused.contains($0) }, refused: refusals)
        }
    }

    /// A client logging out leaves the chat rooms it is in, as on LeanCloud. Rooms tell only
    /// the members who come and go, and this one is gone.
    func leaveChatRooms(of clientID: String) async {
        do {
            for room in try await context.store.conversations(withAnyMember: [clientID]) where room.isTransient {
                try await locks.withLock(room.id) {
                    guard var current = try await context.store.conversation(id: room.id), current.members.contains(clientID) else { return }
                    current.removeMembers([clientID])
                    try await context.store.saveConversation(current)
                    await hooks.membersChanged(.remove, initBy: clientID, members: [clientID], conversationID: current.id)
                }
            }
        } catch {
            context.logger.error("leaving chat rooms at logout failed", metadata: ["client": "\(clientID)", "error": "\(error)"])
        }
    }

    /// The conversation and de-duplicated members of an add or remove, and whether the client
    /// acts on itself alone (join or quit), which it may do without being a member.
    private func membershipChange(_ change: MembershipChange, by clientID: String) async throws -> (Conversation, [String], Bool) {
        try requireMemberLimit(change.clients.count)
        let conversation = try await existingConversation(change.conversationID)
        let requested = Self.uniqued(change.clients)
        guard !requested.isEmpty else { throw CommandError(.conversationAPIFailed, detail: "no members given") }
        return (conversation, requested, requested == [clientID])
    }

    private func verifyMemberSignature(_ change: MembershipChange, clientID: String, members: [String], action: Signature.MemberAction) async throws {
        try await context.signatures.verify(change.signature, failure: .conversationSignatureFailed) { timestamp, nonce in
            context.signatures.signer.changeMembers(
                clientID: clientID, conversationID: change.conversationID, members: members, timestamp: timestamp, nonce: nonce, action: action
            )
        }
    }
}
