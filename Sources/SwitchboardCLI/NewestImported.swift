import SwitchboardCore

/// The newest imported message of each conversation, which the store makes every member's
/// read and delivered position (`ImportStore.markImportedHistoryRead`). Handed over and
/// emptied whenever it holds `limit` conversations, so its memory stays bounded however
/// many an export has: positions only move forward, so handing a conversation over twice
/// ends as handing over its newest once.
struct NewestImported {
    let limit: Int
    private(set) var newest: [String: Int64] = [:]

    init(limit: Int) {
        self.limit = limit
    }

    var isFull: Bool { newest.count >= limit }

    mutating func note(_ message: Message) {
        if let known = newest[message.conversationID], known >= message.timestamp { return }
        newest[message.conversationID] = message.timestamp
    }

    /// What was noted, leaving it empty.
    mutating func take() -> [String: Int64] {
        defer { newest.removeAll(keepingCapacity: true) }
        return newest
    }
}
