/// Reading history: a member reads its conversations' (`logs`); the app's server reads any
/// conversation's, a sender's or the whole app's (the REST API).
public struct MessageHistory: Sendable {
    let context: CoreContext

    /// A page of history, oldest first, with the conversations its messages are in. The
    /// page size is held to the app's maximum; 0 asks for nothing. A client reads one
    /// conversation it is a member of, and sees what it may see (`reader` is itself).
    public func page(_ query: HistoryQuery, by caller: Caller) async throws -> (messages: [Message], conversations: [String: Conversation]) {
        var query = query
        var conversations: [String: Conversation] = [:]
        if case .conversation(let id) = query.scope {
            guard let conversation = try await context.store.conversation(id: id) else {
                throw CommandError(.conversationNotFound, detail: "no such conversation \(id)")
            }
            conversations[id] = conversation
        }
        if caller.isClient {
            guard case .conversation(let id) = query.scope else {
                throw CommandError(.conversationLogRejected, detail: "a client reads its conversations' history only")
            }
            try conversations[id]?.requireMember(caller, or: .conversationLogRejected)
            query.reader = caller.clientID
        }
        query.limit = min(max(query.limit, 0), context.settings.maxHistoryLimit)
        let page = query.limit == 0 ? [] : try await context.store.history(query)
        if conversations.isEmpty {
            for conversation in try await context.store.conversations(ids: Array(Set(page.map(\.conversationID)))) {
                conversations[conversation.id] = conversation
            }
        }
        return (page, conversations)
    }
}
