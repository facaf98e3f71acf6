/// Serializes the read-modify-write changes made to one conversation, on every node.
/// Without it, two clients joining a chat room at the same moment both read the old member
/// list and the second save drops the first joiner. Changes to different conversations do
/// not wait.
actor ConversationLocks {
    /// For each held conversation, who waits for it, first come first served.
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
    private let link: any NodeLink

    init(link: any NodeLink) {
        self.link = link
    }

    /// Runs `change` while no other change to `conversationID` runs.
    nonisolated func withLock<Value: Sendable>(
        _ conversationID: String, _ change: () async throws -> Value
    ) async throws -> Value {
        // Here first: one change of this node at a time asks the others.
        await acquire(conversationID)
        do {
            let value = try await link.exclusively(conversation: conversationID, change)
            await release(conversationID)
            return value
        } catch {
            await release(conversationID)
            throw error
        }
    }

    private func acquire(_ conversationID: String) async {
        guard waiting[conversationID] != nil else {
            waiting[conversationID] = []
            return
        }
        await withCheckedContinuation { waiting[conversationID, default: []].append($0) }
    }

    private func release(_ conversationID: String) {
        guard var queue = waiting[conversationID], !queue.isEmpty else {
            waiting[conversationID] = nil
            return
        }
        // The lock passes straight to the next waiter, so nobody can slip in between.
        let next = queue.removeFirst()
        waiting[conversationID] = queue
        next.resume()
    }
}
