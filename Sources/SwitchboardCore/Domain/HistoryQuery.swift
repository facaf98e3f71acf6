/// A page of a conversation's history, as `logs` asks for it.
///
/// `start` is where reading begins and `end` where it stops; `direction` says which way
/// time runs from `start`. Bounds are exclusive unless their `Included` flag says otherwise.
public struct HistoryQuery: Sendable, Equatable {
    public enum Direction: Sendable { case older, newer }

    public struct Bound: Sendable, Equatable {
        public var timestamp: Int64
        /// Breaks ties between messages of the same timestamp (`mid` / `tmid`).
        public var messageID: String?
        public var included: Bool

        public init(timestamp: Int64, messageID: String? = nil, included: Bool = false) {
            self.timestamp = timestamp
            self.messageID = messageID
            self.included = included
        }
    }

    public var conversationID: String
    public var limit: Int
    public var direction: Direction
    public var start: Bound?
    public var end: Bound?
    /// Only messages of this `_lctype`.
    public var messageType: Int32?

    public init(conversationID: String, limit: Int, direction: Direction, start: Bound?, end: Bound?, messageType: Int32?) {
        self.conversationID = conversationID
        self.limit = limit
        self.direction = direction
        self.start = start
        self.end = end
        self.messageType = messageType
    }
}
