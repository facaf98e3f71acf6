import SwitchboardJSON
import SwitchboardWire

/// The `conv` and `blacklist` commands that read: `conv/query`, `count`, `query_shutup`,
/// `blacklist/query`. Only clients ask these; the REST API reads conversations its own way
/// (`StoredConversations`).
struct ConversationQueries: Sendable {
    /// Bits of `conv/query`'s `flag`.
    enum QueryFlag {
        static let compact: Int32 = 1
    }

    static let defaultQueryLimit = 10
    static let maxQueryLimit = 1000
    /// Conversations one query may name by id.
    static let maxQueryIDs = 100

    let operations: ConversationOperations
    private var context: CoreContext { operations.context }

    /// `conv/count`: how many members a conversation has; for a chat room, as on LeanCloud,
    /// how many are online.
    func count(_ request: GenericCommand, from clientID: String) async throws -> GenericCommand {
        let conversation = try await visibleConversation(request.convMessage.cid, to: clientID)
        var reply = Replies.reply(to: request, op: .result)
        let counted = conversation.isTransient ? await context.online(among: conversation.members).count : conversation.members.count
        reply.convMessage.count = Int32(counted)
        return reply
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
        let now = context.clock.now()
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

    /// `query_shutup`: members see who is silenced, a page at a time.
    func silencedMembers(_ request: GenericCommand, from clientID: String) async throws -> GenericCommand {
        let conv = request.convMessage
        let (conversation, page, next) = try await page(
            of: \.silenced, in: conv.cid, for: clientID, limit: conv.hasLimit ? Int(conv.limit) : nil, next: conv.hasNext ? conv.next : nil
        )
        var reply = Replies.reply(to: request, op: .shutupResult)
        reply.convMessage.cid = conversation.id
        reply.convMessage.m = page
        if let next { reply.convMessage.next = next }
        return reply
    }

    /// `blacklist/query`: members see who is blocked, a page at a time.
    func blockedClients(_ request: GenericCommand, from clientID: String) async throws -> GenericCommand {
        let list = request.blacklistMessage
        let (conversation, page, next) = try await page(
            of: \.blocked, in: list.srcCid, for: clientID, limit: list.hasLimit ? Int(list.limit) : nil, next: list.hasNext ? list.next : nil
        )
        var reply = Replies.reply(to: request, op: .queryResult)
        reply.blacklistMessage.srcCid = conversation.id
        reply.blacklistMessage.blockedPids = page
        if let next { reply.blacklistMessage.next = next }
        return reply
    }

    /// A page of one of a conversation's client lists, which its members alone read.
    private func page(
        of list: KeyPath<Conversation, [String]>, in conversationID: String, for clientID: String, limit: Int?, next: String?
    ) async throws -> (Conversation, [String], String?) {
        let conversation = try await operations.existingConversation(conversationID)
        try conversation.requireMember(clientID)
        let (page, next) = try ListPage.of(conversation[keyPath: list], limit: limit, next: next)
        return (conversation, page, next)
    }

    private func document(_ conversation: Conversation, for clientID: String, lastMessages: [String: Message], compact: Bool) -> JSONValue {
        ConversationDocument.encode(
            conversation,
            lastMessage: context.access.showsLastMessage(of: conversation, to: clientID) ? lastMessages[conversation.id] : nil,
            compact: compact,
            membersHidden: !context.access.showsMembers(of: conversation, to: clientID)
        )
    }

    /// A conversation the client may know of; others answer as if they did not exist.
    private func visibleConversation(_ id: String, to clientID: String) async throws -> Conversation {
        let conversation = try await operations.existingConversation(id)
        guard context.access.isVisible(conversation, to: clientID) else {
            throw CommandError(.conversationNotFound, detail: "no such conversation \(id)")
        }
        return conversation
    }
}
