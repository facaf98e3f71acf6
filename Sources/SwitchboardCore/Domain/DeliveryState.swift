/// What each client's devices have still to receive, and how far each client has received
/// and read each conversation: the devices a client logged in from (a device is queued for
/// from its first login on), the messages queued for each (filled by `MessageLog.append`),
/// taken as they are sent, acknowledged and trimmed, and the delivered and read positions
/// that unread counts and receipts are drawn from. `Delivery`, the session, ack and read
/// commands use it.
///
/// How delivery is kept is this role's alone: today a row for each message queued for each
/// device; a change to that (say, an acknowledged position per device instead of the rows)
/// touches this protocol, each store's `+Delivery` file and the queueing in `append`.
public protocol DeliveryState: Sendable {
    /// Messages queued for a device with a `seq` within `seqs`, unacknowledged and last
    /// delivered before `cutoff`, oldest first; they are marked delivered at `now`.
    func messagesToDeliver(to device: DeviceAddress, seqs: ClosedRange<Int64>, lastDeliveredBefore cutoff: Int64, now: Int64, limit: Int) async throws -> [Message]
    /// Leaves at most the newest `count` messages of each conversation in the device's
    /// queue; the older ones stay in history only.
    func trimQueue(of device: DeviceAddress, keepingPerConversation count: Int) async throws
    /// Takes acknowledged messages off the device's queue and moves its client's delivered
    /// position past them; returns the messages that were still queued for it.
    func acknowledge(_ device: DeviceAddress, messageIDs: [String]) async throws -> [AcknowledgedMessage]
    /// Acknowledges a conversation's messages with timestamps in `range`, as SDKs ack in batches.
    func acknowledge(_ device: DeviceAddress, conversationID: String, timestamps range: ClosedRange<Int64>) async throws -> [AcknowledgedMessage]
    /// Records that `device` was seen (a login or a disconnect) and returns when it was seen
    /// before, nil for a new device; messages are queued for it from its first login on. A
    /// client's first named device takes over what was queued before the client ever logged in.
    @discardableResult
    func deviceSeen(_ device: DeviceAddress, at time: Int64) async throws -> Int64?
    /// The clients with a device that logged in or out at `time` or later.
    func clientsSeen(since time: Int64) async throws -> [String]
    /// Forgets devices not seen since `time`, with what was queued for them, and the notices
    /// and broadcasts that ended before then; returns how many devices.
    func forgetDevices(unseenSince time: Int64) async throws -> Int
    /// Moves the client's read (and so delivered) position in a conversation up to `timestamp`.
    func markRead(clientID: String, conversationID: String, upTo timestamp: Int64) async throws
    /// How far each member has received and read a conversation.
    func receiptPositions(conversationID: String) async throws -> [ReceiptPosition]
    /// The client's conversations with unread messages and a message newer than `since`;
    /// only `conversationID` when given.
    func unreadSummaries(for clientID: String, since: Int64, conversationID: String?) async throws -> [UnreadSummary]
}
