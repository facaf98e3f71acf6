/// What each client's devices have still to receive, and how far each client has received
/// and read each conversation: the devices a client logged in from (a device receives what is
/// stored from its first login on), what each has acknowledged, and the delivered and read
/// positions that unread counts and receipts are drawn from. `Delivery`, the session, ack and
/// read commands use it.
///
/// What a device has still to receive is computed, not kept per message: for a message to
/// every member (`Queueing.everyMember`), each of its member conversations' messages after the
/// device's position there (the last message it acknowledged), stored after it joined and
/// after the device's first login; for a message to chosen clients, and one a client's first
/// device takes over, a copy queued for the device until it acknowledges it. When each was last
/// sent is the core's to remember (`DeliveryTimes`), in memory: after a restart everything
/// unacknowledged is due again, which is what unacknowledged means.
public protocol DeliveryState: Sendable {
    /// The first `limit` messages with a `seq` within `seqs` that the device has still to
    /// receive, oldest first. Reads what every write submitted before it wrote, so that an
    /// acknowledgement handled before it is never answered by sending the message again.
    func pendingMessages(for device: DeviceAddress, seqs: ClosedRange<Int64>, limit: Int) async throws -> [Message]
    /// Leaves at most the newest `count` messages of each conversation for the device to
    /// receive; the older ones stay in history only (as if acknowledged, without receipts).
    func trimQueue(of device: DeviceAddress, keepingPerConversation count: Int) async throws
    /// Moves the device's positions past the acknowledged messages (and the ones before them
    /// in their conversations), takes them off its queue, and moves its client's delivered
    /// position past them; returns the messages the device had still to receive among them.
    func acknowledge(_ device: DeviceAddress, messageIDs: [String]) async throws -> [AcknowledgedMessage]
    /// Acknowledges a conversation's messages with timestamps in `range`, as SDKs ack in batches.
    func acknowledge(_ device: DeviceAddress, conversationID: String, timestamps range: ClosedRange<Int64>) async throws -> [AcknowledgedMessage]
    /// Records that `device` was seen (a login or a disconnect) and returns when it was seen
    /// before, nil for a new device; it receives what is stored from its first login on. A
    /// client's first named device takes over what was queued before the client ever logged in.
    @discardableResult
    func deviceSeen(_ device: DeviceAddress, at time: Int64) async throws -> Int64?
    /// The clients with a device that logged in or out at `time` or later.
    func clientsSeen(since time: Int64) async throws -> [String]
    /// Forgets devices not seen since `time`, with their positions and queued copies, and the notices
    /// and broadcasts that ended before then; returns how many devices.
    func forgetDevices(unseenSince time: Int64) async throws -> Int
    /// Of the messages `seqs`, those whose delivery receipt has not gone out, marked as gone:
    /// a message's receipt goes out once, whichever device or ack delivered it.
    func takeReceipts(of seqs: [Int64]) async throws -> Set<Int64>
    /// The messages of a conversation with timestamps in `range` that `clientID` has now
    /// received (an ack by time, after a page of history) and whose senders still wait for
    /// a receipt, marked as sent; moves the client's delivered position to the range's end.
    func takeReceipts(for clientID: String, conversationID: String, timestamps range: ClosedRange<Int64>) async throws -> [AcknowledgedMessage]
    /// Moves the client's read (and so delivered) position in a conversation up to `timestamp`.
    func markRead(clientID: String, conversationID: String, upTo timestamp: Int64) async throws
    /// How far each member has received and read a conversation.
    func receiptPositions(conversationID: String) async throws -> [ReceiptPosition]
    /// The client's conversations with unread messages and a message newer than `since`;
    /// only `conversationID` when given.
    func unreadSummaries(for clientID: String, since: Int64, conversationID: String?) async throws -> [UnreadSummary]
}
