import SwitchboardWire

/// Roles and moderation; who may do what is `Conversation`'s (see `Conversation+Rank`).
extension ConversationOperations {
    /// Makes a member a manager or a member again; every member is told (in a chat room,
    /// the member alone). A client does it as the owner.
    public func setRole(_ change: RoleChange, by caller: Caller) async throws -> Conversation {
        try await locks.withLock(change.conversationID) {
            var conversation = try await existingConversation(change.conversationID)
            try conversation.requireMember(caller)
            try conversation.requireOwner(caller)
            let target = change.member
            guard change.role != .owner else {
                throw CommandError(.conversationAPIFailed, detail: "role is Manager or Member")
            }
            guard target != conversation.creator else {
                throw CommandError(.conversationOperationUnauthorized, detail: "the owner's role does not change")
            }
            try conversation.requireMember(target)
            conversation.managers.removeAll { $0 == target }
            if change.role == .manager { conversation.managers.append(target) }
            conversation.updatedAt = context.clock.now()
            try await context.store.saveConversation(conversation)

            var notice = Self.notice(.memberInfoChanged, in: conversation.id, by: caller.clientID)
            notice.convMessage.info.pid = target
            notice.convMessage.info.role = change.role.rawValue
            await notifier.notify(conversation.isTransient ? [target] : conversation.members, notice, permanent: !conversation.isTransient)
            return conversation
        }
    }

    /// Silences members, until lifted or for a while, or lets them speak again; members
    /// hear it as `shutuped` and `members_shutuped` (and the `un` ones).
    public func silence(_ change: SilenceChange, by caller: Caller) async throws -> ModerationResult {
        try await locks.withLock(change.conversationID) {
            var conversation = try await existingConversation(change.conversationID)
            let targets = try namedClients(change.clients)
            try conversation.requireModerator(caller, over: targets)
            let now = context.clock.now()
            switch change.action {
            case .silence, .lift:
                conversation.silenced.removeAll { targets.contains($0) }
                if change.action.silences { conversation.silenced += targets }
            case .silenceFor(let seconds):
                conversation.silencedUntil = conversation.silencedUntil.filter { $0.value > now }
                for target in targets { conversation.silencedUntil[target] = now + seconds * 1000 }
            case .liftTimed:
                conversation.silencedUntil = conversation.silencedUntil.filter { $0.value > now && !targets.contains($0.key) }
            }
            conversation.updatedAt = now
            try await context.store.saveConversation(conversation)
            let silenced = change.action.silences
            await announce(
                targets, of: conversation, by: caller.clientID,
                own: silenced ? .shutuped : .unshutuped, others: silenced ? .membersShutuped : .membersUnshutuped, to: conversation.members
            )
            return ModerationResult(conversation: conversation, clients: targets)
        }
    }

    /// Blocks clients or unblocks them. Blocked members leave the conversation; blocked
    /// clients cannot join it or be added (4548).
    public func setBlocked(_ change: BlockChange, by caller: Caller) async throws -> ModerationResult {
        try await locks.withLock(change.conversationID) {
            let clientID = caller.clientID
            var conversation = try await existingConversation(change.conversationID)
            let targets = try namedClients(change.clients)
            try conversation.requireModerator(caller, over: targets)
            conversation.blocked.removeAll { targets.contains($0) }
            let leaving = change.blocked ? targets.filter(conversation.members.contains) : []
            if change.blocked { conversation.blocked += targets }
            let before = conversation
            conversation.removeMembers(leaving)
            conversation.silenced.removeAll { leaving.contains($0) }
            conversation.updatedAt = context.clock.now()
            try await context.store.saveConversation(conversation)
            await announce(
                targets, of: before, by: clientID,
                own: change.blocked ? .blocked : .unblocked, others: change.blocked ? .membersBlocked : .membersUnblocked, to: before.members
            )
            if !leaving.isEmpty {
                await announceMembership(of: before, changed: leaving, by: clientID, joined: false)
                await hooks.membersChanged(.remove, initBy: clientID, members: leaving, conversationID: conversation.id)
            }
            return ModerationResult(conversation: conversation, clients: targets)
        }
    }
}
