import SwitchboardJSON
import SwitchboardWire

/// The `conv` and `blacklist` commands that change conversations: start, add, remove,
/// update, mute, unmute, member_info_update, add_shutup, remove_shutup, block, unblock.
/// Each decodes the request, runs the operation (`ConversationOperations`) as the client
/// and encodes its reply.
struct ConversationCommands: Sendable {
    let operations: ConversationOperations

    func start(_ request: GenericCommand, from clientID: String, on connection: Connection) async throws -> GenericCommand {
        let conv = request.convMessage
        let kind: NewConversation.Kind = conv.transient
            ? .chatRoom
            : conv.tempConv ? .temporary(ttl: conv.hasTempConvTtl && conv.tempConvTtl > 0 ? conv.tempConvTtl : nil) : .conversation
        var new = NewConversation(kind: kind, members: conv.m, attributes: try Self.attributes(conv), unique: conv.unique)
        new.signature = Self.presented(conv)
        let started = try await operations.start(new, by: .client(clientID, on: connection))
        let conversation = started.conversation
        var reply = Replies.reply(to: request, op: .started)
        reply.convMessage.cid = conversation.id
        reply.convMessage.cdate = ISODate.string(milliseconds: conversation.createdAt)
        if conversation.uniqueKey != nil { reply.convMessage.uniqueID = conversation.id }
        if let secondsLeft = started.secondsLeft { reply.convMessage.tempConvTtl = secondsLeft }
        // The Swift SDK then takes what it knows of the conversation as outdated
        // (swift-sdk `IMClient.swift` 871).
        if started.existed { reply.convMessage.existing = true }
        return reply
    }

    func change(_ request: GenericCommand, from clientID: String, on connection: Connection) async throws -> GenericCommand {
        let caller = Caller.client(clientID, on: connection)
        let conv = request.convMessage
        switch (request.cmd, request.op) {
        case (.conv, .add), (.conv, .remove):
            var change = MembershipChange(conversationID: conv.cid, clients: conv.m)
            change.signature = Self.presented(conv)
            let result = request.op == .add ? try await operations.add(change, by: caller) : try await operations.remove(change, by: caller)
            var reply = Replies.reply(to: request, op: request.op == .add ? .added : .removed)
            reply.convMessage.allowedPids = result.allowed
            reply.convMessage.failedPids = result.refused.map(Self.failedPids)
            return reply
        case (.conv, .update):
            let updated = try await operations.update(ConversationUpdate(conversationID: conv.cid, changes: try Self.attributes(conv)), by: caller)
            var reply = Replies.reply(to: request, op: .updated)
            reply.convMessage.cid = updated.conversation.id
            reply.convMessage.udate = ISODate.string(milliseconds: updated.conversation.updatedAt)
            reply.convMessage.attrModified.data = JSONValue.object(updated.changes).jsonString
            return reply
        case (.conv, .mute), (.conv, .unmute):
            let conversation = try await operations.setMuted(MuteChange(conversationID: conv.cid, clients: [clientID], muted: request.op == .mute), by: caller)
            var reply = Replies.reply(to: request, op: .updated)
            reply.convMessage.cid = conversation.id
            reply.convMessage.udate = ISODate.string(milliseconds: conversation.updatedAt)
            return reply
        case (.conv, .memberInfoUpdate):
            guard let role = MemberRole(rawValue: conv.info.role) else {
                throw CommandError(.conversationAPIFailed, detail: "role is Manager or Member")
            }
            let member = conv.info.hasPid && !conv.info.pid.isEmpty ? conv.info.pid : conv.targetClientID
            let conversation = try await operations.setRole(RoleChange(conversationID: conv.cid, member: member, role: role), by: caller)
            var reply = Replies.reply(to: request, op: .memberInfoUpdated)
            reply.convMessage.cid = conversation.id
            return reply
        case (.conv, .addShutup), (.conv, .removeShutup):
            let silenced = request.op == .addShutup
            let result = try await operations.silence(SilenceChange(conversationID: conv.cid, clients: conv.m, action: silenced ? .silence : .lift), by: caller)
            var reply = Replies.reply(to: request, op: silenced ? .shutupAdded : .shutupRemoved)
            reply.convMessage.cid = result.conversation.id
            reply.convMessage.allowedPids = result.clients
            return reply
        case (.blacklist, .block), (.blacklist, .unblock):
            let list = request.blacklistMessage
            let blocked = request.op == .block
            let result = try await operations.setBlocked(BlockChange(conversationID: list.srcCid, clients: list.toPids, blocked: blocked), by: caller)
            var reply = Replies.reply(to: request, op: blocked ? .blocked : .unblocked)
            reply.blacklistMessage.srcCid = result.conversation.id
            reply.blacklistMessage.allowedPids = result.clients
            return reply
        default:
            throw CommandError(.unparseableRawMessage, detail: "unsupported command \(request.cmd)/\(request.op)")
        }
    }

    /// One entry of `failedPids`: the clients a partly done request left out, and why.
    private static func failedPids(_ refusal: Refusal) -> ErrorCommand {
        var failure = ErrorCommand()
        failure.code = refusal.error.code.rawValue
        failure.reason = refusal.error.code.reason
        if let detail = refusal.error.detail { failure.detail = detail }
        failure.pids = refusal.clients
        return failure
    }

    private static func attributes(_ conv: ConvCommand) throws -> [String: JSONValue] {
        guard conv.hasAttr, !conv.attr.data.isEmpty else { return [:] }
        guard let value = try? JSONValue(parsing: conv.attr.data), let object = value.objectValue else {
            throw CommandError(.conversationAPIFailed, detail: "attr must be a JSON object")
        }
        return object
    }

    private static func presented(_ conv: ConvCommand) -> SignatureCheck.Presented {
        SignatureCheck.Presented(signature: conv.hasS ? conv.s : nil, timestamp: conv.hasT ? conv.t : nil, nonce: conv.hasN ? conv.n : nil)
    }
}
