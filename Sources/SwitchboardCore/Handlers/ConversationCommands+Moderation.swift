import SwitchboardWire

/// Member roles and moderation: `conv/member_info_update`, `conv/add_shutup`,
/// `remove_shutup`, `query_shutup`, and the `blacklist` commands.
///
/// The creator owns a conversation and alone names managers. Owners and managers moderate,
/// and only clients ranked below them (a manager cannot silence or block another manager or
/// itself); a request naming anyone else is refused whole with 4320, as LeanCloud does.
extension ConversationCommands {
    // MARK: roles

    func updateMemberRole(_ request: GenericCommand, from clientID: String, byServer: Bool) async throws -> GenericCommand {
        let conv = request.convMessage
        var conversation = try await existingConversation(conv.cid)
        if !byServer { try conversation.requireMember(clientID) }
        let target = conv.info.hasPid && !conv.info.pid.isEmpty ? conv.info.pid : conv.targetClientID
        guard byServer || conversation.role(of: clientID) == .owner else {
            throw CommandError(.conversationOperationUnauthorized, detail: "only the owner changes roles")
        }
        guard let role = MemberRole(rawValue: conv.info.role), role != .owner else {
            throw CommandError(.conversationAPIFailed, detail: "role is Manager or Member")
        }
        guard target != conversation.creator else {
            throw CommandError(.conversationOperationUnauthorized, detail: "the owner's role does not change")
        }
        try conversation.requireMember(target)
        conversation.managers.removeAll { $0 == target }
        if role == .manager { conversation.managers.append(target) }
        conversation.updatedAt = ServerClock.wallMilliseconds()
        try await context.store.saveConversation(conversation)

        var notice = Replies.notification(.conv, op: .memberInfoChanged, to: clientID)
        notice.convMessage.cid = conversation.id
        notice.convMessage.initBy = clientID
        notice.convMessage.info.pid = target
        notice.convMessage.info.role = role.rawValue
        await notifier.notify(conversation.isTransient ? [target] : conversation.members, notice, permanent: !conversation.isTransient)
        var reply = Replies.reply(to: request, op: .memberInfoUpdated)
        reply.convMessage.cid = conversation.id
        return reply
    }

    // MARK: silencing

    func setSilenced(_ silenced: Bool, _ request: GenericCommand, from clientID: String, byServer: Bool) async throws -> GenericCommand {
        let conv = request.convMessage
        var conversation = try await existingConversation(conv.cid)
        let targets = try moderationTargets(conv.m, in: conversation, by: clientID, byServer: byServer)
        conversation.silenced.removeAll { targets.contains($0) }
        if silenced { conversation.silenced += targets }
        conversation.updatedAt = ServerClock.wallMilliseconds()
        try await context.store.saveConversation(conversation)
        await announce(
            targets, of: conversation, by: clientID,
            own: silenced ? .shutuped : .unshutuped, others: silenced ? .membersShutuped : .membersUnshutuped
        )
        var reply = Replies.reply(to: request, op: silenced ? .shutupAdded : .shutupRemoved)
        reply.convMessage.cid = conversation.id
        reply.convMessage.allowedPids = targets
        return reply
    }

    /// `query_shutup`: members see who is silenced, a page at a time.
    func silencedMembers(_ request: GenericCommand, from clientID: String) async throws -> GenericCommand {
        let conv = request.convMessage
        let conversation = try await existingConversation(conv.cid)
        try conversation.requireMember(clientID)
        let (page, next) = try ListPage.of(conversation.silenced, limit: conv.hasLimit ? Int(conv.limit) : nil, next: conv.hasNext ? conv.next : nil)
        var reply = Replies.reply(to: request, op: .shutupResult)
        reply.convMessage.cid = conversation.id
        reply.convMessage.m = page
        if let next { reply.convMessage.next = next }
        return reply
    }

    // MARK: blacklist

    /// `blacklist/block` and `unblock`. Blocked members leave the conversation; blocked
    /// clients cannot join it or be added (4548).
    func setBlocked(_ blocked: Bool, _ request: GenericCommand, from clientID: String, byServer: Bool) async throws -> GenericCommand {
        let list = request.blacklistMessage
        var conversation = try await existingConversation(list.srcCid)
        let targets = try moderationTargets(list.toPids, in: conversation, by: clientID, byServer: byServer)
        conversation.blocked.removeAll { targets.contains($0) }
        let leaving = blocked ? targets.filter(conversation.members.contains) : []
        if blocked { conversation.blocked += targets }
        let before = conversation
        conversation.removeMembers(leaving)
        conversation.silenced.removeAll { leaving.contains($0) }
        conversation.updatedAt = ServerClock.wallMilliseconds()
        try await context.store.saveConversation(conversation)
        await announce(
            targets, of: before, by: clientID,
            own: blocked ? .blocked : .unblocked, others: blocked ? .membersBlocked : .membersUnblocked
        )
        if !leaving.isEmpty {
            await announceMembership(of: before, changed: leaving, by: clientID, joined: false)
            await hooks.membersChanged(.remove, initBy: clientID, members: leaving, conversationID: conversation.id)
        }
        var reply = Replies.reply(to: request, op: blocked ? .blocked : .unblocked)
        reply.blacklistMessage.srcCid = conversation.id
        reply.blacklistMessage.allowedPids = targets
        return reply
    }

    /// `blacklist/query`: members see who is blocked, a page at a time.
    func blockedClients(_ request: GenericCommand, from clientID: String) async throws -> GenericCommand {
        let list = request.blacklistMessage
        let conversation = try await existingConversation(list.srcCid)
        try conversation.requireMember(clientID)
        let (page, next) = try ListPage.of(conversation.blocked, limit: list.hasLimit ? Int(list.limit) : nil, next: list.hasNext ? list.next : nil)
        var reply = Replies.reply(to: request, op: .queryResult)
        reply.blacklistMessage.srcCid = conversation.id
        reply.blacklistMessage.blockedPids = page
        if let next { reply.blacklistMessage.next = next }
        return reply
    }

    // MARK: helpers

    /// The de-duplicated clients a moderator acts on, all ranked below it (the app's server
    /// ranks above everyone).
    private func moderationTargets(_ requested: [String], in conversation: Conversation, by clientID: String, byServer: Bool) throws -> [String] {
        try requireMemberLimit(requested.count)
        try requireValidIDs(requested)
        let targets = Self.uniqued(requested)
        guard !targets.isEmpty else { throw CommandError(.conversationAPIFailed, detail: "no clients given") }
        if byServer { return targets }
        try conversation.requireMember(clientID)
        let own = conversation.role(of: clientID)
        guard own.moderates else {
            throw CommandError(.conversationOperationUnauthorized, detail: "only the owner and managers moderate")
        }
        if let peer = targets.first(where: { !own.outranks(conversation.role(of: $0)) }) {
            throw CommandError(.conversationOperationUnauthorized, detail: "\(peer) is \(conversation.role(of: peer).rawValue.lowercased()) of \(conversation.id)")
        }
        return targets
    }

    /// The targets hear `own`, every member (targets too) `others` naming them; in chat
    /// rooms, which are large, only the targets hear.
    func announce(_ targets: [String], of conversation: Conversation, by clientID: String, own: OpType, others: OpType) async {
        var notice = Replies.notification(.conv, op: own, to: clientID)
        notice.convMessage.cid = conversation.id
        notice.convMessage.initBy = clientID
        await notifier.notify(targets, notice, permanent: !conversation.isTransient)
        guard !conversation.isTransient else { return }
        var told = Replies.notification(.conv, op: others, to: clientID)
        told.convMessage.cid = conversation.id
        told.convMessage.initBy = clientID
        told.convMessage.m = targets
        await notifier.notify(conversation.members, told, permanent: true)
    }
}
