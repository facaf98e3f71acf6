/// Everything the core keeps across restarts. The core depends on this protocol only;
/// `SwitchboardStore` implements it over SQLite and over PostgreSQL.
public protocol MessageStore: Sendable {
    /// False when writes are refused for good (SQLite's file deleted under the server);
    /// `/health` then says so.
    var acceptsWrites: Bool { get }
    func createConversation(_ conversation: Conversation) async throws
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
    /// Writes the conversation's fields; members who left lose their row and new ones join
    /// at its `updatedAt`, so the others keep their join times.
    func saveConversation(_ conversation: Conversation) async throws
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

    /// Stores the message and queues it for each device of each of `recipients` until that
    /// device acknowledges it, and returns it with its `seq`; if the sender already sent it
    /// (same conversation, same client token), stores nothing and returns the message stored then.
    func append(_ message: Message, queueFor recipients: [String]) async throws -> Message
    func message(id: String) async throws -> Message?
    /// Replaces a stored message's content, mentions, patch time (an edit or recall) and audience.
    func updateMessage(_ message: Message) async throws
    /// Deletes a stored message, with its queued copies: history no longer has it.
    func deleteMessage(id: String) async throws
    /// Messages changed after `since` (their patch time) in conversations `clientID` is a
    /// member of, oldest change first.
    func patchedMessages(visibleTo clientID: String, since: Int64, limit: Int) async throws -> [Message]
    func history(_ query: HistoryQuery) async throws -> [Message]
    /// Messages queued for a device with a `seq` within `seqs`, unacknowledged and last
    /// delivered before `cutoff`, oldest first; they are marked delivered at `now`.
    func messagesToDeliver(to device: DeviceAddress, seqs: ClosedRange<Int64>, lastDeliveredBefore cutoff: Int64, now: Int64, limit: Int) async throws -> [Message]
    /// Takes acknowledged messages off the device's queue and moves its client's delivered
    /// position past them; returns the messages that were still queued for it.
    func acknowledge(_ device: DeviceAddress, messageIDs: [String]) async throws -> [AcknowledgedMessage]
    /// Leaves at most the newest `count` messages of each conversation in the device's
    /// queue; the older ones stay in history only.
    func trimQueue(of device: DeviceAddress, keepingPerConversation count: Int) async throws
    /// Acknowledges a conversation's messages with timestamps in `range`, as SDKs ack in batches.
    func acknowledge(_ device: DeviceAddress, conversationID: String, timestamps range: ClosedRange<Int64>) async throws -> [AcknowledgedMessage]
    /// Records that `device` was seen (a login or a disconnect) and returns when it was seen
    /// before, nil for a new device; messages are queued for it from its first login on. A
    /// client's first named device takes over what was queued before the client ever logged in.
    @discardableResult
    func deviceSeen(_ device: DeviceAddress, at time: Int64) async throws -> Int64?
    /// Keeps a stored message as an app-wide broadcast, for the devices that log in before
    /// `validTill`.
    func keepBroadcast(messageID: String, validTill: Int64) async throws
    /// Broadcasts (of one conversation, or all) sent after `sentAfter` and still valid at
    /// `now`, oldest first.
    func broadcasts(in conversationID: String?, sentAfter: Int64, validAt now: Int64, skip: Int, limit: Int) async throws -> [Message]
    /// Stops a broadcast reaching devices that have not had it; false if there was none.
    func deleteBroadcast(messageID: String) async throws -> Bool
    /// The clients with a device that logged in or out at `time` or later.
    func clientsSeen(since time: Int64) async throws -> [String]
    /// Forgets devices not seen since `time`, with what was queued for them, and the notices
    /// and broadcasts that ended before then; returns how many devices.
    func forgetDevices(unseenSince time: Int64) async throws -> Int
    /// Keeps a notice (a serialized command) for each of `clientIDs`, for their devices that
    /// are offline now.
    func keepNotice(_ command: [UInt8], for clientIDs: [String], at time: Int64) async throws
    /// The notices kept for `clientID` at or after `time`, oldest first.
    func notices(for clientID: String, since time: Int64, limit: Int) async throws -> [[UInt8]]
    /// The `seq` of the newest message stored, 0 when there is none.
    func latestMessageSeq() async throws -> Int64
    /// Moves the client's read (and so delivered) position in a conversation up to `timestamp`.
    func markRead(clientID: String, conversationID: String, upTo timestamp: Int64) async throws
    /// The client's conversations with unread messages and a message newer than `since`;
    /// only `conversationID` when given.
    func unreadSummaries(for clientID: String, since: Int64, conversationID: String?) async throws -> [UnreadSummary]
    /// Remembers a device a client logged in from, for pushes.
    func registerDevice(clientID: String, token: String, deviceID: String?) async throws
    /// The devices registered by each of `clientIDs`, at login or by an installation
    /// subscribed to the client's channel (those with none are left out), oldest first.
    func pushDevices(of clientIDs: [String]) async throws -> [String: [PushDevice]]
    /// Saves a device for push; one with the same token or installation id is updated
    /// instead. Returns its object id, whether it is new, and when it was saved.
    func saveInstallation(_ installation: Installation) async throws -> (objectID: String, created: Bool, at: Int64)
    /// Changes a saved device's tokens, vendor, badge or channels; nil when there is no such device.
    func updateInstallation(objectID: String, _ change: InstallationChange) async throws -> Int64?
    /// A saved device with its channels; nil when there is no such device.
    func installation(objectID: String) async throws -> SavedInstallation?
    /// Saved devices with their channels, in object id order, byte by byte, from just past
    /// `objectID`, at most `limit`.
    func installations(after objectID: String?, limit: Int) async throws -> [SavedInstallation]
    /// Forgets a saved device and its channels; false when there was none.
    func deleteInstallation(objectID: String) async throws -> Bool
    /// Counts one more push on each device's badge and returns the counts, by token.
    func countBadges(tokens: [String]) async throws -> [String: Int]
    /// Clears the badge of every device of `clientID`: it has read its messages.
    func clearBadges(of clientID: String) async throws
    /// Forgets a device token its push service says is no longer valid.
    func removeDevice(token: String) async throws
    /// Up to `limit` clients with a registered device, in order of id, after `clientID`.
    func clientsWithDevices(after clientID: String, limit: Int) async throws -> [String]
    /// How far each member has received and read a conversation.
    func receiptPositions(conversationID: String) async throws -> [ReceiptPosition]
    /// The newest message of each conversation, for query results that show it.
    func lastMessages(conversationIDs: [String]) async throws -> [String: Message]
    /// The greatest message timestamp stored, so the clock can continue past it.
    func latestMessageTimestamp() async throws -> Int64?
}

extension MessageStore {
    public var acceptsWrites: Bool { true }
}
