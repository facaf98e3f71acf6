/// How far a member has received and read a conversation: the timestamps of the newest
/// messages it acknowledged and read (0 for none).
public struct ReceiptPosition: Sendable, Equatable {
    public var clientID: String
    public var acknowledgedUpTo: Int64
    public var readUpTo: Int64

    public init(clientID: String, acknowledgedUpTo: Int64, readUpTo: Int64) {
        self.clientID = clientID
        self.acknowledgedUpTo = acknowledgedUpTo
        self.readUpTo = readUpTo
    }
}
