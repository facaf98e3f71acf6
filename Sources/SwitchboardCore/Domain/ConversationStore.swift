/// The conversations a store keeps: their fields and lists (managers, muted, silenced and
/// blocked clients), their members with when each joined, each client's memberships, and
/// their expiry. Conversation commands, the app's server (the REST API) and the query
/// classes read and write them through this role; a conversation's messages are the
/// `MessageLog`'s.
public protocol ConversationStore: Sendable {
    func createConversation(_ conversation: Conversation) async throws
    /// Writes the conversation's fields; members who left lose their row and new ones join
    /// at its `updatedAt`, so the others keep their join times.
    func saveConversation(_ conversation: Conversation) async throws
    /// The conversation, whether or not it has expired; callers decide what expiry means.
    func conversation(id: String) async throws -> Conversation?
    func conversation(uniqueKey: String) async throws -> Conversation?
    /// Conversations whose id is one of `ids`.
    func conversations(ids: [String]) async throws -> [Conversation]
    /// Conversations that have any of `members` among their members.
    func conversations(withAnyMember members: [String]) async throws -> [Conversation]
    /// The ids of the conversations whose blacklist has `clientID`, in order. Reads every
    /// conversation's blacklist (none is indexed): for the app's server now and then.
    func conversationIDs(blocking clientID: String) async throws -> [String]
    /// Every conversation, newest first, at most `limit`; used for queries that name no
    /// member or id.
    func recentConversations(limit: Int) async throws -> [Conversation]
    /// Every conversation (expired ones too) in id order, byte by byte, from just past `id`,
    /// at most `limit`: a walk of them all, a page at a time through the primary key.
    func conversations(after id: String?, limit: Int) async throws -> [Conversation]
    /// The conversations that have managers, with them, in id order from just past `id`, at
    /// most `limit`; their members are not read.
    func managedConversations(after id: String?, limit: Int) async throws -> [ManagedConversation]
    /// A conversation's members ordered by client id, from just after `clientID`, at most `limit`.
    func members(of conversationID: String, after clientID: String?, limit: Int) async throws -> [Membership]
    /// The conversations of `kind` a client is in, ordered by when it joined (newest first
    /// with `newestFirst`), from just past `after` (a join time and conversation id), at most `limit`.
    func memberships(
        of clientID: String, kind: Conversation.Kind, after: (joinedAt: Int64, conversationID: String)?, newestFirst: Bool, limit: Int
    ) async throws -> [Membership]
    /// Deletes the conversations that expired before `time`, with their messages, queues
    /// and receipt positions; returns how many.
    func deleteConversations(expiredBefore time: Int64) async throws -> Int
    /// Deletes a conversation with its messages, queues and receipt positions.
    func deleteConversation(id: String) async throws
}
