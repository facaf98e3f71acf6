import SwitchboardJSON
import SwitchboardWire

/// What the app's own server does through the REST API that no client command does: send
/// as anyone, run system conversations, read any history, kick clients.
extension MessagingCore {
    /// A system conversation's message to chosen clients, subscribers or not: only they
    /// receive it and see it in history (and the sender).
    public func sendToSubscribers(_ audience: [String], _ message: OutgoingMessage, by caller: Caller) async throws -> SentMessage {
        _ = try await systemConversation(message.conversationID)
        guard audience.allSatisfy(ClientID.isValid) else { throw CommandError(.conversationAPIFailed, detail: ClientID.rule) }
        var message = message
        message.audience = Array(Set(audience)).sorted()
        return try await sending.send(message, by: caller)
    }

    /// A new system conversation (LeanCloud's service conversation), without subscribers.
    public func createSystemConversation(name: String?, attributes: [String: JSONValue]) async throws -> Conversation {
        let now = context.clock.now()
        let conversation = Conversation(
            id: Identifiers.conversationID(), kind: .system, name: name, creator: Self.serverClientID, members: [],
            attributes: attributes.filter { !ConversationDocument.reservedKeys.contains($0.key) },
            uniqueKey: nil, createdAt: now, updatedAt: now
        )
        try await context.store.createConversation(conversation)
        return conversation
    }

    /// Subscribes a client to a system conversation, or unsubscribes it. A client the
    /// conversation blocks is refused with 4548, as when it is added to any other.
    public func setSubscribed(_ subscribed: Bool, clientID: String, systemConversation id: String) async throws {
        guard ClientID.isValid(clientID) else { throw CommandError(.conversationAPIFailed, detail: ClientID.rule) }
        try await conversations.locks.withLock(id) {
            var conversation = try await systemConversation(id)
            if subscribed, conversation.blocked.contains(clientID) {
                throw CommandError(.blockedByConversation, detail: "\(clientID) is blocked in \(id)")
            }
            guard conversation.members.contains(clientID) != subscribed else { return }
            if subscribed { conversation.members.append(clientID) } else { conversation.members.removeAll { $0 == clientID } }
            conversation.updatedAt = context.clock.now()
            try await context.store.saveConversation(conversation)
        }
    }

    /// A page of a system conversation's subscribers with when they subscribed, by client
    /// id from just after `after`.
    public func subscribers(of id: String, after: String?, limit: Int) async throws -> [Membership] {
        _ = try await systemConversation(id)
        return try await context.store.members(of: id, after: after, limit: limit)
    }

    /// A page of the system conversations a client subscribes to, in the order it subscribed
    /// (newest first with `newestFirst`), from just past `after`.
    public func subscriptions(
        of clientID: String, after: (joinedAt: Int64, conversationID: String)?, newestFirst: Bool, limit: Int
    ) async throws -> [Membership] {
        try await context.store.memberships(of: clientID, kind: .system, after: after, newestFirst: newestFirst, limit: limit)
    }

    private func systemConversation(_ id: String) async throws -> Conversation {
        guard let conversation = try await context.store.conversation(id: id), conversation.kind == .system else {
            throw CommandError(.conversationNotFound, detail: "no system conversation \(id)")
        }
        return conversation
    }

    /// A page of history (one conversation's, one sender's or the app's) for the app's
    /// server, oldest first, with the conversations its messages are in.
    public func history(_ query: HistoryQuery) async throws -> (messages: [Message], conversations: [String: Conversation]) {
        try await reading.page(query, by: .server(as: Self.serverClientID))
    }

    /// How many messages `clientID` has not read, in one conversation or in all of its.
    public func unreadCount(of clientID: String, conversationID: String?) async throws -> Int {
        try await context.store.unreadSummaries(for: clientID, since: 0, conversationID: conversationID).reduce(0) { $0 + $1.count }
    }

    /// How many clients are online now, and how many were online at some time today (UTC):
    /// LeanCloud's `/1.2/rtm/stats`. Reads every client seen today: meant for a dashboard
    /// now and then, not for polling.
    public func clientCounts() async throws -> (online: Int, today: Int) {
        let online = Set(presence.onlineDevices.keys.map(\.clientID)).union(await context.link.everyoneOnlineElsewhere())
        let now = context.clock.now()
        let midnight = now - now % 86_400_000
        return (online.count, online.union(try await context.store.clientsSeen(since: midnight)).count)
    }

    /// Which of `clientIDs` have a session open, on any node.
    public func online(among clientIDs: [String]) async -> Set<String> {
        await context.online(among: clientIDs)
    }

    /// Ends every session of a client, on every node: each of its devices gets
    /// `session/closed` with 4115 KICKED_BY_APP (and `reason`), and `_clientOffline` runs
    /// with closeCode 4.
    public func kick(_ clientID: String, reason: String?) async {
        await kickHere(clientID, reason: reason)
        context.link.publish(.kick(clientID: clientID, reason: reason))
    }

    /// Ends the client's sessions on this node (see `kick`).
    func kickHere(_ clientID: String, reason: String?) async {
        for session in presence.sessions(of: clientID) {
            guard let closed = presence.close(clientID: clientID, connectionID: session.connection.id) else { continue }
            // Ended by the app, not lost: its will is not sent, by any node (withdrawn before
            // the client hears, which may be the last this node does).
            await wills.withdraw(for: clientID, setOn: closed.connection.id)
            var notice = Replies.notification(.session, op: .closed, to: clientID)
            notice.sessionMessage.code = ErrorCode.kickedByApp.rawValue
            notice.sessionMessage.reason = reason ?? ErrorCode.kickedByApp.reason
            closed.connection.outbox.send(notice)
            context.logger.info("client kicked", metadata: ["client": "\(clientID)", "connection": "\(closed.connection.id)"])
            await context.link.sessionClosed(closed)
            await clientHooks.offline(clientID, session: closed, closeCode: .kickedByAPI, message: reason ?? "kicked by the app")
            await context.deviceLeft(closed.device)
        }
    }
}
