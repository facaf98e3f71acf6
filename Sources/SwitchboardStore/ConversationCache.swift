import Synchronization
import SwitchboardCore

/// Conversations as last read from the database, so that sending a message does not read
/// its conversation and members from SQLite each time.
///
/// Kept right by the store's own writes: each one, once committed, drops or updates the
/// entries it touched. A read that missed fills the cache only if no write touched that
/// conversation since the read began, so a read racing a write never leaves the older
/// state behind: `beginRead()` before reading the database, `fill(_:readSince:)` after.
final class ConversationCache: Sendable {
    private struct State {
        var entries: [String: Conversation] = [:]
        /// Counts writes; a read remembers where it started.
        var generation: UInt64 = 0
        /// The generation of the latest write to each conversation since `floor`.
        var written: [String: UInt64] = [:]
        /// Reads that began before this may not fill: `written` was cleared at it.
        var floor: UInt64 = 0
    }

    private let state = Mutex(State())
    let capacity: Int

    /// `capacity` conversations at most; past it, an arbitrary one makes room.
    init(capacity: Int) {
        self.capacity = capacity
    }

    func beginRead() -> UInt64 {
        state.withLock { $0.generation }
    }

    /// The cached ones of `ids`, and those not cached.
    func lookUp(_ ids: [String]) -> (found: [Conversation], missing: [String]) {
        state.withLock { state in
            var found: [Conversation] = []
            var missing: [String] = []
            for id in ids {
                if let conversation = state.entries[id] { found.append(conversation) } else { missing.append(id) }
            }
            return (found, missing)
        }
    }

    /// Keeps what a read that began at `start` found, unless a write touched it since.
    func fill(_ conversations: [Conversation], readSince start: UInt64) {
        state.withLock { state in
            guard start >= state.floor else { return }
            for conversation in conversations where (state.written[conversation.id] ?? 0) <= start {
                if state.entries[conversation.id] == nil, state.entries.count >= capacity, let any = state.entries.keys.first {
                    state.entries[any] = nil
                }
                state.entries[conversation.id] = conversation
            }
        }
    }

    /// After a committed write that changed these conversations in ways only a new read
    /// gives back.
    func invalidate(_ ids: some Sequence<String>) {
        state.withLock { state in
            for id in ids {
                Self.noteWrite(id, &state)
                state.entries[id] = nil
            }
        }
    }

    /// After a committed message: the conversation's last message time moves on.
    func messageStored(in id: String, at timestamp: Int64) {
        state.withLock { state in
            Self.noteWrite(id, &state)
            if let last = state.entries[id]?.lastMessageAt, last >= timestamp { return }
            state.entries[id]?.lastMessageAt = timestamp
        }
    }

    private static func noteWrite(_ id: String, _ state: inout State) {
        state.generation += 1
        state.written[id] = state.generation
        // Bounded: forgetting every write at once only stops the reads under way from filling.
        if state.written.count > 10_000 {
            state.written = [:]
            state.floor = state.generation
        }
    }
}
