import SwitchboardJSON
import SwitchboardWire

/// The yes-or-no questions the Swift SDK asks of a conversation: `conv/is_member`,
/// `conv/members` (who of a chat room is online), `conv/check_shutup` and
/// `blacklist/check_block`. The SDK reads each answer's fields whatever its op
/// (swift-sdk `IMConversation.swift` 1790-1808, 2942-2957, 2346-2365, 2204-2223).
struct ConversationChecks: Sendable {
    /// Online members one `conv/members` answers: the SDK asks for at most 50.
    static let maxOnlineMembers = 50

    let operations: ConversationOperations
    private var context: CoreContext { operations.context }

    /// `conv/is_member`: `results` maps each conversation of `cids` to whether the client is a
    /// member; one that does not exist, or that it may not see, to false.
    func membership(_ request: GenericCommand, from clientID: String) async throws -> GenericCommand {
        let conv = request.convMessage
        let ids = conv.cids + (conv.hasCid && !conv.cid.isEmpty ? [conv.cid] : [])
        guard !ids.isEmpty, ids.count <= ConversationQueries.maxQueryIDs else {
            throw CommandError(.conversationAPIFailed, detail: "cids names 1 to \(ConversationQueries.maxQueryIDs) conversations")
        }
        let now = context.clock.now()
        let members = Set(try await context.store.conversations(ids: ids).filter { !$0.isExpired(at: now) && $0.members.contains(clientID) }.map(\.id))
        var reply = Replies.reply(to: request, op: .isMember)
        reply.convMessage.results.data = JSONValue.object(Dictionary(ids.map { ($0, JSONValue.bool(members.contains($0))) }, uniquingKeysWith: { first, _ in first })).jsonString
        return reply
    }

    /// `conv/members`: the members online now, at most `limit` of them (50 by default).
    func onlineMembers(_ request: GenericCommand, from clientID: String) async throws -> GenericCommand {
        let conv = request.convMessage
        let conversation = try await operations.existingConversation(conv.cid)
        guard context.access.isVisible(conversation, to: clientID) else {
            throw CommandError(.conversationNotFound, detail: "no such conversation \(conv.cid)")
        }
        let limit = conv.hasLimit && conv.limit > 0 ? min(Int(conv.limit), Self.maxOnlineMembers) : Self.maxOnlineMembers
        let online = await context.online(among: conversation.members)
        var reply = Replies.reply(to: request, op: .members)
        reply.convMessage.cid = conversation.id
        reply.convMessage.m = Array(conversation.members.filter(online.contains).prefix(limit))
        return reply
    }

    /// `conv/check_shutup`: which of `m` are silenced now, in `m`; members ask.
    func silenced(_ request: GenericCommand, from clientID: String) async throws -> GenericCommand {
        let conv = request.convMessage
        let conversation = try await operations.existingConversation(conv.cid)
        try conversation.requireMember(clientID)
        let now = context.clock.now()
        var reply = Replies.reply(to: request, op: .checkResult)
        reply.convMessage.cid = conversation.id
        reply.convMessage.m = conv.m.filter { conversation.isSilenced($0, at: now) }
        return reply
    }

    /// `blacklist/check_block`: which of `toPids` are blocked, in `blockedPids`; members ask.
    func blocked(_ request: GenericCommand, from clientID: String) async throws -> GenericCommand {
        let list = request.blacklistMessage
        let conversation = try await operations.existingConversation(list.srcCid)
        try conversation.requireMember(clientID)
        var reply = Replies.reply(to: request, op: .checkResult)
        reply.blacklistMessage.srcCid = conversation.id
        reply.blacklistMessage.blockedPids = list.toPids.filter(conversation.blocked.contains)
        return reply
    }
}
