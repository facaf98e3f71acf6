/// What an acknowledgement needs of each message it took off a device's queue: enough to
/// send the sender its delivery receipt, without reading the content back.
public struct AcknowledgedMessage: Sendable, Equatable {
    public var seq: Int64
    public var id: String
    public var conversationID: String
    public var from: String
    public var timestamp: Int64
    public var wantsReceipt: Bool

    public init(seq: Int64, id: String, conversationID: String, from: String, timestamp: Int64, wantsReceipt: Bool) {
        self.seq = seq
        self.id = id
        self.conversationID = conversationID
        self.from = from
        self.timestamp = timestamp
        self.wantsReceipt = wantsReceipt
    }
}
