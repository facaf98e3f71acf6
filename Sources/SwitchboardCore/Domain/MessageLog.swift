/// The messages a store keeps: each conversation's history in order (`seq`), as sent and
/// as edited or recalled since, and the broadcasts kept for devices that log in later.
/// Storing a message also queues it for its recipients' devices, in the same transaction
/// (what they do with the queue is `DeliveryState`'s).
///
/// A store keeps one conversation's messages' `seq`s in the order they commit (messages of
/// different conversations may commit out of `seq` order): a device's position in a
/// conversation means everything up to it was delivered and acknowledged.
public protocol MessageLog: Sendable {
    /// Stores the message and queues it for the devices `queueing` names until each
    /// acknowledges it, and returns it with its `seq`; if the sender already sent it (same
    /// conversation, same client token), stores nothing and returns the message stored then.
    /// Calls `placed` once the message has its place in its conversation's order, before it
    /// commits: a message of the conversation appended after that commits after it.
    func append(_ message: Message, queueFor queueing: Queueing, placed: @escaping @Sendable () -> Void) async throws -> Message
    func message(id: String) async throws -> Message?
    /// Deletes a stored message, with its queued copies: history no longer has it.
    func deleteMessage(id: String) async throws
    /// Replaces a stored message's content, mentions, patch time (an edit or recall) and audience.
    func updateMessage(_ message: Message) async throws
    /// Messages changed after `since` (their patch time) in conversations `clientID` is a
    /// member of, oldest change first.
    func patchedMessages(visibleTo clientID: String, since: Int64, limit: Int) async throws -> [Message]
    func history(_ query: HistoryQuery) async throws -> [Message]
    /// The newest message of each conversation, for query results that show it.
    func lastMessages(conversationIDs: [String]) async throws -> [String: Message]
    /// The greatest message timestamp stored, so the clock can continue past it.
    func latestMessageTimestamp() async throws -> Int64?
    /// The `seq` of the newest message stored, 0 when there is none.
    func latestMessageSeq() async throws -> Int64
    /// Keeps a stored message as an app-wide broadcast, for the devices that log in before
    /// `validTill`.
    func keepBroadcast(messageID: String, validTill: Int64) async throws
    /// Broadcasts (of one conversation, or all) sent after `sentAfter` and still valid at
    /// `now`, oldest first.
    func broadcasts(in conversationID: String?, sentAfter: Int64, validAt now: Int64, skip: Int, limit: Int) async throws -> [Message]
    /// Stops a broadcast reaching devices that have not had it; false if there was none.
    func deleteBroadcast(messageID: String) async throws -> Bool
}

extension MessageLog {
    public func append(_ message: Message, queueFor queueing: Queueing) async throws -> Message {
        try await append(message, queueFor: queueing, placed: {})
    }
}
