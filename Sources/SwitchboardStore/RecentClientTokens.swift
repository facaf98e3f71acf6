import Synchronization

/// The `dt` tokens of the messages each conversation stored lately, in memory, so that a
/// message sent again after a lost ack is found without an index on the tokens. Such an
/// index took a random page per message, anywhere in its sender's part of the conversation:
/// a page written to the log each time, and once the index outgrew SQLite's page cache a read
/// from the file too (20–40 CPU-µs a message under load).
///
/// A copy is recognized while its first is among the conversation's last `perConversation`
/// messages with a token and at most `duration` older: a client sends a message again when
/// its ack was lost, right after it reconnects. A conversation's tokens are read from the
/// database the first time it stores a message with one (after a restart, or after it was
/// dropped: gone quiet past the window, or to keep within `capacity`), so what is
/// recognized does not depend on what this process remembers.
///
/// Used inside the store's write transactions, which run one at a time: between `isHeld` and
/// `fill` nothing else touches the conversation. A token recorded in a transaction that is
/// rolled back points at a `seq` that is not that message's: callers check the row they find.
final class RecentClientTokens: Sendable {
    /// How far back a token is kept, in the messages' milliseconds.
    let duration: Int64
    /// Tokens kept per conversation at most: the newest.
    let perConversation: Int
    /// Tokens and conversations kept in all; past either, arbitrary conversations are dropped
    /// (and read again when they next store a message with a token). Conversations count on
    /// their own: each takes memory for its collections however few tokens it holds.
    let capacity: (tokens: Int, conversations: Int)

    private struct Entry {
        var key: Int
        var seq: Int64
        var timestamp: Int64
    }

    /// One conversation's tokens: oldest first from `head`, and the newest `seq` of each key.
    private struct Conversation {
        var entries: [Entry] = []
        var head = 0
        var seqs: [Int: Int64] = [:]

        var count: Int { entries.count - head }

        mutating func append(_ entry: Entry) {
            entries.append(entry)
            seqs[entry.key] = entry.seq
        }

        /// Drops the oldest entries past `limit` and those older than `oldest`; returns how many.
        mutating func trim(to limit: Int, olderThan oldest: Int64) -> Int {
            let before = count
            while head < entries.count, count > limit || entries[head].timestamp < oldest {
                let entry = entries[head]
                if seqs[entry.key] == entry.seq { seqs[entry.key] = nil }
                head += 1
            }
            // Reclaims the dropped prefix once it is half the array: amortized constant time.
            if head > 32, head * 2 > entries.count {
                entries.removeFirst(head)
                head = 0
            }
            return before - count
        }
    }

    private struct State {
        var conversations: [String: Conversation] = [:]
        var total = 0
        var recordsSinceSweep = 0
    }

    private let state = Mutex(State())

    init(duration: Int64 = 3_600_000, perConversation: Int = 10_000, capacity: (tokens: Int, conversations: Int) = (1_000_000, 100_000)) {
        self.duration = duration
        self.perConversation = perConversation
        self.capacity = capacity
    }

    /// Whether the conversation's tokens are in memory; if not, `fill` them before `seq`.
    func isHeld(_ conversationID: String) -> Bool {
        state.withLock { $0.conversations[conversationID] != nil }
    }

    /// Takes a conversation's recent tokens as read from the database (its newest
    /// `perConversation` within `duration`), oldest first.
    func fill(_ conversationID: String, with rows: [(sender: String, token: String, seq: Int64, timestamp: Int64)]) {
        state.withLock { state in
            var conversation = Conversation()
            for row in rows {
                conversation.append(Entry(key: Self.key(row.sender, row.token), seq: row.seq, timestamp: row.timestamp))
            }
            state.total += conversation.count - (state.conversations[conversationID]?.count ?? 0)
            state.conversations[conversationID] = conversation
            makeRoom(&state, keeping: conversationID)
        }
    }

    /// The `seq` of the newest message stored with this sender and token that is still
    /// kept, as of a message at `timestamp`.
    func seq(in conversationID: String, sender: String, token: String, at timestamp: Int64) -> Int64? {
        state.withLock { state in
            guard let dropped = state.conversations[conversationID]?.trim(to: perConversation, olderThan: timestamp - duration) else {
                return nil
            }
            state.total -= dropped
            return state.conversations[conversationID]?.seqs[Self.key(sender, token)]
        }
    }

    /// Remembers a message just stored with a token.
    func record(in conversationID: String, sender: String, token: String, seq: Int64, timestamp: Int64) {
        state.withLock { state in
            let entry = Entry(key: Self.key(sender, token), seq: seq, timestamp: timestamp)
            state.conversations[conversationID, default: Conversation()].append(entry)
            state.total += 1 - state.conversations[conversationID, default: Conversation()].trim(
                to: perConversation, olderThan: timestamp - duration
            )
            state.recordsSinceSweep += 1
            if state.recordsSinceSweep >= max(Self.recordsBetweenSweeps, state.conversations.count) {
                sweep(&state, olderThan: timestamp - duration)
            }
            makeRoom(&state, keeping: conversationID)
        }
    }

    /// Records between two sweeps at least; more when more conversations are held, so that a
    /// sweep costs a constant time per record.
    static let recordsBetweenSweeps = 1_000

    /// Drops the conversations whose newest token is past the window: tokens are otherwise
    /// trimmed only when their conversation stores a message, and one that went quiet would
    /// keep its own until the total reached the capacity.
    private func sweep(_ state: inout State, olderThan oldest: Int64) {
        state.recordsSinceSweep = 0
        let quiet = state.conversations.filter { ($0.value.entries.last?.timestamp ?? .min) < oldest }
        for (id, conversation) in quiet {
            state.conversations[id] = nil
            state.total -= conversation.count
        }
    }

    private func makeRoom(_ state: inout State, keeping kept: String) {
        while state.total > capacity.tokens || state.conversations.count > capacity.conversations,
            let other = state.conversations.keys.first(where: { $0 != kept })
        {
            state.total -= state.conversations.removeValue(forKey: other)?.count ?? 0
        }
    }

    /// Sender and token as one hash: a collision only makes the caller read a row that is not
    /// the copy, which it checks.
    private static func key(_ sender: String, _ token: String) -> Int {
        var hasher = Hasher()
        hasher.combine(sender)
        hasher.combine(token)
        return hasher.finalize()
    }
}
