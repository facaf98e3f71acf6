import Foundation
import SwitchboardJSON
import SwitchboardWire

/// The `conv` commands: start, add, remove, update, mute, unmute, query.
struct ConversationCommands: Sendable {
    /// Bits of `conv/query`'s `flag`.
    enum QueryFlag {
        static let compact: Int32 = 1
    }

    static let defaultQueryLimit = 10
    static let maxQueryLimit = 1000
    /// Conversations one query may name by id.
    static let maxQueryIDs = 100
    /// Keys one `conv/update` may change, and the size the attributes may grow to.
    static let maxUpdateKeys = 100
    static let maxAttributesBytes = 65_536

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

    // MARK: start

    /// `byServer`: created by the app's server (REST API), with `clientID` as its creator:
    /// no signature, and the members are those named, creator or not.
    func start(_ request: GenericCommand, from clientID: String, byServer: Bool = false) async throws -> GenericCommand {
        let conv = request.convMessage
        try requireMemberLimit(conv.m.count)
        try requireValidIDs(conv.m)
        var members = Self.uniqued((byServer ? [] : [clientID]) + conv.m)
        let attributes = try Self.attributes(conv)
        let name = attributes["name"]?.stringValue
        let custom = attributes.filter { !ConversationDocument.reservedKeys.contains($0.key) }
        if context.settings.signaturesRequired, !byServer {
            try await verifyStartSignature(conv, clientID: clientID, members: conv.m)
        }
        let now = ServerClock.wallMilliseconds()
        var reply = Replies.reply(to: request, op: .started)

        if conv.transient {
            // A chat room: its creator joins it; others join with conv/add.
            members = byServer ? [] : [clientID]
        } else if conv.unique {
            let key = Conversation.uniqueKey(for: members, temporary: conv.tempConv)
            if var existing = try await context.store.conversation(uniqueKey: key) {
                guard existing.isExpired(at: now) else { return Self.reply(request, naming: existing, now: now) }
                // An expired temporary conversation gives its members' key up to the new one.
                existing.uniqueKey = nil
                try await context.store.saveConversation(existing)
            }
        }
        try requireMemberLimit(members.count)
        try await hooks.start(initBy: clientID, members: members, attr: attributes)

        let kind: Conversation.Kind = conv.transient ? .transient : (conv.tempConv ? .temporary : .normal)
        var expiresAt: Int64?
        if kind == .temporary {
            let ttl = conv.hasTempConvTtl && conv.tempConvTtl > 0
                ? min(conv.tempConvTtl, context.settings.maxTemporaryConversationTTL)
                : context.settings.temporaryConversationTTL
            expiresAt = now + Int64(ttl) * 1000
            reply.convMessage.tempConvTtl = ttl
        }
        let conversation = Conversation(
            id: kind == .temporary ? Identifiers.temporaryConversationID() : Identifiers.conversationID(),
            kind: kind,
            name: name,
            creator: clientID,
            members: members,
            attributes: custom,
            uniqueKey: kind != .transient && conv.unique ? Conversation.uniqueKey(for: members, temporary: kind == .temporary) : nil,
            createdAt: now,
            updatedAt: now,
            expiresAt: expiresAt
        )
        do {
            try await context.store.createConversation(conversation)
        } catch where conversation.uniqueKey != nil {
            // Another client created the same unique conversation at the same moment.
            guard let key = conversation.uniqueKey, let existing = try await context.store.conversation(uniqueKey: key) else { throw error }
            return Self.reply(request, naming: existing, now: now)
        }
        context.logger.info("conversation started", metadata: ["conversation": "\(conversation.id)", "by": "\(clientID)", "members": "\(members.count)"])
        reply.convMessage.cid = conversation.id
        reply.convMessage.cdate = ISODate.string(milliseconds: now)
        if conversation.uniqueKey != nil { reply.convMessage.uniqueID = conversation.id }

        var joined = Replies.notification(.conv, op: .joined, to: clientID)
        joined.convMessage.cid = conversation.id
        joined.convMessage.initBy = clientID
        // A client that starts one knows; a creator the server names does not yet.
        await notifier.notify(byServer ? members : members.filter { $0 != clientID }, joined, permanent: !conversation.isTransient)
        await hooks.started(conversation.id)
        return reply
    }

    /// The answer to a `unique` start that found its conversation: the one with the same
    /// members, and for a temporary conversation the seconds it has left.
    private static func reply(_ request: GenericCommand, naming existing: Conversation, now: Int64) -> GenericCommand {
        var reply = Replies.reply(to: request, op: .started)
        reply.convMessage.cid = existing.id
        reply.convMessage.cdate = ISODate.string(milliseconds: existing.createdAt)
        reply.convMessage.uniqueID = existing.id
        if let expiresAt = existing.expiresAt {
            reply.convMessage.tempConvTtl = Int32(clamping: max((expiresAt - now) / 1000, 1))
        }
        return reply
    }

    // MARK: changes

    /// `conv/add`, `remove`, `update`, `mute`, `unmute`, `member_info_update`, `add_shutup`,
    /// `remove_shutup` and `blacklist/block`, `unblock`: each reads the conversation, changes
    /// it and saves it whole, one at a time per conversation.
    ///
    /// `byServer`: asked by the app's server (REST API) in `clientID`'s name, which need not
    /// be a member and ranks above every role; the hooks, the checks on the members named
    /// and the notices are a client's.
    func change(_ request: GenericCommand, from clientID: String, byServer: Bool = false) async throws -> GenericCommand {
        if request.cmd == .blacklist {
            return try await locks.withLock(request.blacklistMessage.srcCid) {
                try await setBlocked(request.op == .block, request, from: clientID, byServer: byServer)
            }
        }
        return try await locks.withLock(request.convMessage.cid) {
            switch request.op {
            case .add: try await add(request, from: clientID, byServer: byServer)
            case .remove: try await remove(request, from: clientID, byServer: byServer)
            case .update: try await update(request, from: clientID, byServer: byServer)
            case .mute: try await setMuted(true, request, from: clientID)
            case .unmute: try await setMuted(false, request, from: clientID)
            case .memberInfoUpdate: try await updateMemberRole(request, from: clientID, byServer: byServer)
            case .addShutup: try await setSilenced(true, request, from: clientID, byServer: byServer)
            case .removeShutup: try await setSilenced(false, request, from: clientID, byServer: byServer)
            default: throw CommandError(.unparseableRawMessage, detail: "unsupported command conv/\(request.op)")
            }
        }
    }

    // MARK: add and remove

    private func add(_ request: GenericCommand, from clientID: String, byServer: Bool) async throws -> GenericCommand {
        let conv = request.convMessage
        var (conversation, requested, joiningSelf) = try await membershipChange(conv, by: clientID)
        try requireValidIDs(requested)
        let isMember = conversation.members.contains(clientID)
        let signedJoin = joiningSelf && !isMember && context.access.joiningRequiresSignature(conversation)
        // A private conversation's signed join is how an outsider learns of it.
        guard byServer || context.access.isVisible(conversation, to: clientID) || (signedJoin && conv.hasS) else {
            throw CommandError(.conversationNotFound, detail: "no such conversation \(conversation.id)")
        }
        if !joiningSelf, !byServer { try conversation.requireMember(clientID) }
        if conversation.isTemporary, !joiningSelf {
            throw CommandError(.conversationNotAllowed, detail: "temporary conversations keep their members")
        }
        if !byServer, context.settings.signaturesRequired || signedJoin {
            try await verifyMemberSignature(conv, clientID: clientID, conversationID: conversation.id, members: requested, action: .invite)
        }
        let refused = requested.filter(conversation.blocked.contains)
        let added = requested.filter { !conversation.members.contains($0) && !refused.contains($0) }
        guard conversation.members.count + added.count <= context.settings.maxMembers else {
            throw CommandError(.conversationFull, detail: "at most \(context.settings.maxMembers) members")
        }
        if !added.isEmpty {
            try await hooks.changeMembers(.add, initBy: clientID, members: added, conversationID: conversation.id)
            conversation.members += added
            conversation.updatedAt = ServerClock.wallMilliseconds()
            try await context.store.saveConversation(conversation)
            await announceMembership(of: conversation, changed: added, by: clientID, joined: true)
            await hooks.membersChanged(.add, initBy: clientID, members: added, conversationID: conversation.id)
        }
        var reply = Replies.reply(to: request, op: .added)
        reply.convMessage.allowedPids = requested.filter { !refused.contains($0) }
        if !refused.isEmpty {
            reply.convMessage.failedPids = [Self.failure(.blockedByConversation, pids: refused, detail: "blocked in \(conversation.id)")]
        }
        return reply
    }

    private func remove(_ request: GenericCommand, from clientID: String, byServer: Bool) async throws -> GenericCommand {
        let conv = request.convMessage
        var (conversation, requested, leavingSelf) = try await membershipChange(conv, by: clientID)
        if !leavingSelf, !byServer {
            try conversation.requireMember(clientID)
            if context.settings.signaturesRequired {
                try await verifyMemberSignature(conv, clientID: clientID, conversationID: conversation.id, members: requested, action: .kick)
            }
        }
        let (refused, failures) = byServer ? ([], []) : removalFailures(requested, from: conversation, by: clientID)
        let removed = requested.filter { conversation.members.contains($0) && !refused.contains($0) }
        if !removed.isEmpty {
            // A member leaving by itself is not the app's to refuse.
            if !leavingSelf {
                try await hooks.changeMembers(.remove, initBy: clientID, members: removed, conversationID: conversation.id)
            }
            // Announce to the members before they go, so the removed ones hear it too.
            let before = conversation
            conversation.removeMembers(removed)
            conversation.updatedAt = ServerClock.wallMilliseconds()
            try await context.store.saveConversation(conversation)
            await announceMembership(of: before, changed: removed, by: clientID, joined: false)
            await hooks.membersChanged(.remove, initBy: clientID, members: removed, conversationID: conversation.id)
        }
        var reply = Replies.reply(to: request, op: .removed)
        reply.convMessage.allowedPids = requested.filter { !refused.contains($0) }
        reply.convMessage.failedPids = failures
        return reply
    }

    /// Who `clientID` may not remove, with why: anyone ranked above it (4320), and the owner
    /// while it has managers (4324: the roles need their owner). Without managers the
    /// creator may leave, as on LeanCloud.
    private func removalFailures(_ requested: [String], from conversation: Conversation, by clientID: String) -> ([String], [ErrorCommand]) {
        let own = conversation.role(of: clientID)
        let outranking = requested.filter { $0 != clientID && conversation.role(of: $0).outranks(own) }
        let owner = !conversation.managers.isEmpty && requested.contains(conversation.creator) && !outranking.contains(conversation.creator)
            ? [conversation.creator] : []
        var failures: [ErrorCommand] = []
        if !outranking.isEmpty {
            failures.append(Self.failure(.conversationOperationUnauthorized, pids: outranking, detail: "only members ranked below you can be removed"))
        }
        if !owner.isEmpty {
            failures.append(Self.failure(.conversationNeedOwner, pids: owner, detail: "the owner stays while it has managers"))
        }
        return (outranking + owner, failures)
    }

    /// One entry of `failedPids`: the clients a partly done request left out, and why.
    static func failure(_ code: ErrorCode, pids: [String], detail: String) -> ErrorCommand {
        var failure = ErrorCommand()
        failure.code = code.rawValue
        failure.reason = code.reason
        failure.detail = detail
        failure.pids = pids
        return failure
    }

    /// `joined`/`left` to the members who came or went, `members_joined`/`members_left` to
    /// the others. Chat rooms only tell the members themselves: rooms are large.
    func announceMembership(of conversation: Conversation, changed: [String], by clientID: String, joined: Bool) async {
        var own = Replies.notification(.conv, op: joined ? .joined : .left, to: clientID)
        own.convMessage.cid = conversation.id
        own.convMessage.initBy = clientID
        await notifier.notify(changed, own, permanent: !conversation.isTransient)
        guard !conversation.isTransient else { return }
        var others = Replies.notification(.conv, op: joined ? .membersJoined : .membersLeft, to: clientID)
        others.convMessage.cid = conversation.id
        others.convMessage.initBy = clientID
        others.convMessage.m = changed
        await notifier.notify(conversation.members.filter { !changed.contains($0) }, others, permanent: true)
    }

    // MARK: update, mute

    private func update(_ request: GenericCommand, from clientID: String, byServer: Bool) async throws -> GenericCommand {
        var conversation = try await existingConversation(request.convMessage.cid)
        guard byServer || conversation.members.contains(clientID) else {
            throw CommandError(.conversationUpdateRejected, detail: "\(clientID) is not a member of \(conversation.id)")
        }
        var changes = try Self.attributes(request.convMessage)
        if case .attributes(let replaced) = try await hooks.update(initBy: clientID, conversationID: conversation.id, change: .attributes(.object(changes))) {
            changes = replaced.objectValue ?? [:]
        }
        guard changes.count <= Self.maxUpdateKeys else {
            throw CommandError(.conversationUpdateFailed, detail: "at most \(Self.maxUpdateKeys) keys per update")
        }
        var modified: [String: JSONValue] = [:]
        for (key, value) in changes {
            if key == "name" {
                conversation.name = value["__op"]?.stringValue == "Delete" ? nil : value.stringValue
            } else {
                try AttributeUpdate(key: key, value: value).apply(to: &conversation.attributes)
            }
            modified[key] = value
        }
        guard JSONValue.object(conversation.attributes).jsonString.utf8.count <= Self.maxAttributesBytes else {
            throw CommandError(.conversationUpdateFailed, detail: "attributes are at most \(Self.maxAttributesBytes) bytes")
        }
        conversation.updatedAt = ServerClock.wallMilliseconds()
        try await context.store.saveConversation(conversation)

        let updatedAt = ISODate.string(milliseconds: conversation.updatedAt)
        var reply = Replies.reply(to: request, op: .updated)
        reply.convMessage.cid = conversation.id
        reply.convMessage.udate = updatedAt
        reply.convMessage.attrModified.data = JSONValue.object(modified).jsonString

        var notice = Replies.notification(.conv, op: .updated, to: clientID)
        notice.convMessage.cid = conversation.id
        notice.convMessage.initBy = clientID
        notice.convMessage.udate = updatedAt
        notice.convMessage.attr.data = JSONValue.object(changes).jsonString
        notice.convMessage.attrModified.data = JSONValue.object(modified).jsonString
        await notifier.notify(conversation.members.filter { $0 != clientID }, notice, permanent: !conversation.isTransient)
        return reply
    }

    private func setMuted(_ muted: Bool, _ request: GenericCommand, from clientID: String) async throws -> GenericCommand {
        var conversation = try await existingConversation(request.convMessage.cid)
        try conversation.requireMember(clientID)
        try await mute(muted, by: [clientID], in: &conversation)
        var reply = Replies.reply(to: request, op: .updated)
        reply.convMessage.cid = conversation.id
        reply.convMessage.udate = ISODate.string(milliseconds: conversation.updatedAt)
        return reply
    }

    /// Mutes or unmutes the conversation for each client, as `_conversationUpdate` decides
    /// for it, and saves it.
    func mute(_ muted: Bool, by clientIDs: [String], in conversation: inout Conversation) async throws {
        for clientID in clientIDs {
            var decided = muted
            if case .mute(let hooked) = try await hooks.update(initBy: clientID, conversationID: conversation.id, change: .mute(muted)) {
                decided = hooked
            }
            conversation.mutedBy.removeAll { $0 == clientID }
            if decided { conversation.mutedBy.append(clientID) }
        }
        conversation.updatedAt = ServerClock.wallMilliseconds()
        try await context.store.saveConversation(conversation)
    }

    // MARK: query

    /// `conv/count`: how many members a conversation has; for a chat room, as on LeanCloud,
    /// how many are online.
    func count(_ request: GenericCommand, from clientID: String) async throws -> GenericCommand {
        let conversation = try await visibleConversation(request.convMessage.cid, to: clientID)
        var reply = Replies.reply(to: request, op: .result)
        let counted = conversation.isTransient ? await context.online(among: conversation.members).count : conversation.members.count
        reply.convMessage.count = Int32(counted)
        return reply
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

    func query(_ request: GenericCommand, from clientID: String) async throws -> GenericCommand {
        let conv = request.convMessage
        let filter: DocumentFilter
        let whereDocument: JSONValue
        do {
            whereDocument = conv.hasWhere && !conv.where.data.isEmpty ? try JSONValue(parsing: conv.where.data) : .object([:])
            filter = try DocumentFilter(whereDocument)
        } catch let error as DocumentFilter.Unsupported {
            throw CommandError(.conversationAPIFailed, detail: error.description)
        } catch {
            throw CommandError(.conversationAPIFailed, detail: "where is not valid JSON")
        }
        let named = conv.cids + conv.tempConvIds
        guard named.count <= Self.maxQueryIDs else {
            throw CommandError(.conversationAPIFailed, detail: "at most \(Self.maxQueryIDs) conversation ids per query")
        }
        let now = ServerClock.wallMilliseconds()
        let conversations = try await ConversationSearch.candidates(for: whereDocument, ids: named, in: context.store).filter {
            // Temporary conversations are found by id only.
            !$0.isExpired(at: now) && context.access.isVisible($0, to: clientID) && (!$0.isTemporary || named.contains($0.id))
        }
        let lastMessages = try await context.store.lastMessages(conversationIDs: conversations.map(\.id))
        let compact = conv.flag & QueryFlag.compact != 0
        // Filters and sorting see what the client may see of each conversation, whole; the
        // compact form only shapes the answer.
        let documents = conversations.map { ($0, document($0, for: clientID, lastMessages: lastMessages, compact: false)) }
        let sortKeys = conv.hasSort ? conv.sort : "-updatedAt"
        let sort = try ConversationSearch.ordering(sortKeys)
        let matching = documents.filter { filter.matches($0.1) }.sorted { sort($0.1, $1.1) }
        let skip = max(Int(conv.skip), 0)
        let limit = conv.hasLimit ? min(max(Int(conv.limit), 0), Self.maxQueryLimit) : Self.defaultQueryLimit
        let page = matching.dropFirst(skip).prefix(limit).map { conversation, document in
            compact ? self.document(conversation, for: clientID, lastMessages: lastMessages, compact: true) : document
        }

        var reply = Replies.reply(to: request, op: .results)
        reply.convMessage.results.data = JSONValue.array(page).jsonString
        return reply
    }

    private func document(_ conversation: Conversation, for clientID: String, lastMessages: [String: Message], compact: Bool) -> JSONValue {
        ConversationDocument.encode(
            conversation,
            lastMessage: context.access.showsLastMessage(of: conversation, to: clientID) ? lastMessages[conversation.id] : nil,
            compact: compact,
            membersHidden: !context.access.showsMembers(of: conversation, to: clientID)
        )
    }

    // MARK: helpers

    func existingConversation(_ id: String) async throws -> Conversation {
        guard !id.isEmpty, let conversation = try await context.store.conversation(id: id),
              !conversation.isExpired(at: ServerClock.wallMilliseconds())
        else {
            throw CommandError(.conversationNotFound, detail: "no such conversation \(id)")
        }
        return conversation
    }

    /// A conversation the client may know of; others answer as if they did not exist.
    private func visibleConversation(_ id: String, to clientID: String) async throws -> Conversation {
        let conversation = try await existingConversation(id)
        guard context.access.isVisible(conversation, to: clientID) else {
            throw CommandError(.conversationNotFound, detail: "no such conversation \(id)")
        }
        return conversation
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

    /// The conversation and de-duplicated members of an add or remove, and whether the client
    /// acts on itself alone (join or quit), which it may do without being a member.
    private func membershipChange(_ conv: ConvCommand, by clientID: String) async throws -> (Conversation, [String], Bool) {
        try requireMemberLimit(conv.m.count)
        let conversation = try await existingConversation(conv.cid)
        let requested = Self.uniqued(conv.m)
        guard !requested.isEmpty else { throw CommandError(.conversationAPIFailed, detail: "no members given") }
        return (conversation, requested, requested == [clientID])
    }

    private static func attributes(_ conv: ConvCommand) throws -> [String: JSONValue] {
        guard conv.hasAttr, !conv.attr.data.isEmpty else { return [:] }
        guard let value = try? JSONValue(parsing: conv.attr.data), let object = value.objectValue else {
            throw CommandError(.conversationAPIFailed, detail: "attr must be a JSON object")
        }
        return object
    }

    static func uniqued(_ ids: [String]) -> [String] {
        var seen = Set<String>()
        return ids.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    private func verifyStartSignature(_ conv: ConvCommand, clientID: String, members: [String]) async throws {
        try await context.signatures.verify(Self.presented(conv), failure: .conversationSignatureFailed) { timestamp, nonce in
            context.signatures.signer.startConversation(clientID: clientID, members: members, timestamp: timestamp, nonce: nonce)
        }
    }

    private func verifyMemberSignature(
        _ conv: ConvCommand, clientID: String, conversationID: String, members: [String], action: Signature.MemberAction
    ) async throws {
        try await context.signatures.verify(Self.presented(conv), failure: .conversationSignatureFailed) { timestamp, nonce in
            context.signatures.signer.changeMembers(
                clientID: clientID, conversationID: conversationID, members: members, timestamp: timestamp, nonce: nonce, action: action
            )
        }
    }

    private static func presented(_ conv: ConvCommand) -> SignatureCheck.Presented {
        SignatureCheck.Presented(signature: conv.hasS ? conv.s : nil, timestamp: conv.hasT ? conv.t : nil, nonce: conv.hasN ? conv.n : nil)
    }
}
