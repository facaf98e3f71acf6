import SwitchboardData

/// Where `switchboard leancloud import` writes an app's IM data: batches of items as they
/// were on LeanCloud, ids and times kept. Every write is idempotent, so an import run twice,
/// over overlapping exports, or again after it was killed, ends as one clean run; each
/// batch is one transaction. `SwitchboardStore` implements it over SQLite and PostgreSQL.
///
/// Roles, lists and subscriptions belong to a conversation's version: they are applied only
/// to a conversation as an import last wrote it, never to one changed here since (whose own
/// are newer than any export's).
public protocol ImportStore: Sendable {
    /// Stores new conversations with their members (joined at the conversation's creation),
    /// and replaces those stored in an older version (`updatedAt`): its fields, members who
    /// left go and newcomers join at its `updatedAt` (a system conversation's subscribers
    /// stay), while roles and lists stay as they are, and `lastMessageAt` never goes back.
    /// A unique key another conversation holds is left out, with a note.
    func importConversations(_ conversations: [Conversation]) async throws -> ImportOutcome
    /// Makes members managers, or plain members again.
    func importRoles(_ roles: [ImportedRole]) async throws -> ImportOutcome
    /// Replaces conversations' blocked and silenced lists.
    func importLists(_ lists: [ImportedLists]) async throws -> ImportOutcome
    /// Subscribes clients to system conversations, at the times they subscribed.
    func importSubscriptions(_ subscriptions: [Membership]) async throws -> ImportOutcome
    /// Stores messages whose ids are new, each conversation's in the order given (their
    /// order in its history where times are equal), queued for nobody; one already there
    /// stays as it is, and one whose conversation is not here is skipped. `turn` waits
    /// for the batch before this one to be stored (throwing its error): a store makes the
    /// batch ready to write meanwhile, so that batches are written in order and back to back.
    func importMessages(_ messages: [Message], after turn: @Sendable () async throws -> Void) async throws -> ImportOutcome
    /// Before an import's messages, about `expected` of them: a store may set aside an index
    /// that costs an import more kept up message by message than built once at the end, in
    /// `finishImportingMessages` (history reads are slower in between).
    func startImportingMessages(expected: Int) async throws
    func finishImportingMessages() async throws
    /// For each conversation, the timestamp of its newest imported message: its
    /// `lastMessageAt` and every member's read and delivered positions move up to it (never
    /// back), so history from before the move is read and is not delivered again.
    func markImportedHistoryRead(_ newest: [String: Int64]) async throws
    /// Stores installations by object id, replacing one stored in an older version
    /// (`updatedAt`), channels and badge with it; one whose device another installation
    /// here already has is skipped.
    func importInstallations(_ installations: [SavedInstallation]) async throws -> ImportOutcome
}

extension ImportStore {
    /// Stores messages as the batch after those already stored.
    public func importMessages(_ messages: [Message]) async throws -> ImportOutcome {
        try await importMessages(messages, after: {})
    }
}
