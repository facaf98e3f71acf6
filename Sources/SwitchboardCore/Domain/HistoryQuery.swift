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

        /// Stores compare `seq` with that of `messageID` among messages of the bound's
        /// timestamp (on one node timestamps are unique; two nodes may stamp two messages of a
        /// conversation alike). When that message is not there, they compare with this
        /// instead, which takes all of those messages when the bound is included and none
        /// when it is not. `comparison`: `<` reading towards older messages, `>` towards newer.
        public func seqWithoutTheMessage(comparison: String) -> Int64 {
            included == (comparison == "<") ? .max : 0
        }
    }

    /// Whose messages: one conversation's (`logs`), one sender's or the whole app's (the
    /// REST API).
    public enum Scope: Sendable, Equatable {
        case conversation(String)
        case sender(String)
        case app
    }

    public var scope: Scope
    public var limit: Int
    public var direction: Direction
    public var start: Bound?
    public var end: Bound?
    /// Only messages of this `_lctype`.
    public var messageType: Int32?
    /// Only messages this client may see (messages to chosen members are theirs and the
    /// sender's); nil for the app's server, which sees everything.
    public var reader: String?

    public init(scope: Scope, limit: Int, direction: Direction, start: Bound?, end: Bound?, messageType: Int32?, reader: String? = nil) {
        self.scope = scope
        self.limit = limit
        self.direction = direction
        self.start = start
        self.end = end
        self.messageType = messageType
        self.reader = reader
    }
}
