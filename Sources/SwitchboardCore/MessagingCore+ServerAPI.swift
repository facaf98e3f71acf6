import Synchronization
import SwitchboardJSON
import SwitchboardWire

/// What the app's own server does through the REST API that no client command does: send
/// as anyone, run system conversations, read any history, kick clients.
extension MessagingCore {
    /// A message to a conversation from `from`, who need not be a member; the same path as a
    /// client's send otherwise (hooks, storage, delivery, pushes). `toSender`: `from`'s
    /// online devices get a copy, as LeanCloud does unless `no_sync`. `audience`: only these
    /// clients receive and see it. Returns the message's id and server timestamp.
    public func sendAsServer(
        _ direct: DirectCommand, from: String, priority: MessagePriority?, toSender: Bool = true, audience: [String]? = nil
    ) async throws -> (id: String, timestamp: Int64) {
        var request = GenericCommand()
        request.cmd = .direct
        request.directMessage = direct
        if let priority { request.priority = priority.rawValue }
        let collected = CollectingOutbox()
        _ = try await messages.send(request, from: from, on: Self.serverConnection(collected), byServer: true, toSender: toSender, audience: audience)
        guard let ack = collected.first?.ackMessage else {
            throw CommandError(.internalError, detail: "the send gave no ack")
        }
        return (ack.uid, ack.t)
    }

    /// A system conversation's message to chosen clients, subscribers or not: only they
    /// receive it and see it in history (and the sender).
    public func sendToSubscribers(
        _ audience: [String], _ direct: DirectCommand, from: String, priority: MessagePriority?, toSender: Bool
    ) async throws -> (id: String, timestamp: Int64) {
        _ = try await systemConversation(direct.cid)
        guard audience.allSatisfy(ClientID.isValid) else { throw CommandError(.conversationAPIFailed, detail: ClientID.rule) }
        return try await sendAsServer(direct, from: from, priority: priority, toSender: toSender, audience: Array(Set(audience)).sorted())
    }

    /// A new system conversation (LeanCloud's service conversation), without subscribers.
    public func createSystemConversation(name: String?, attributes: [String: JSONValue]) async throws -> Conversation {
        let now = ServerClock.wallMilliseconds()
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
            conversation.updatedAt = ServerClock.wallMilliseconds()
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
        var conversations: [String: Conversation] = [:]
        if case .conversation(let id) = query.scope {
            guard let conversation = try await context.store.conversation(id: id) else {
                throw CommandError(.conversationNotFound, detail: "no such conversation \(id)")
            }
            conversations[id] = conversation
        }
        var query = query
        query.limit = min(max(query.limit, 0), context.settings.maxHistoryLimit)
        let page = query.limit == 0 ? [] : try await context.store.history(query)
        if conversations.isEmpty {
            for conversation in try await context.store.conversations(ids: Array(Set(page.map(\.conversationID)))) {
                conversations[conversation.id] = conversation
            }
        }
        return (page, conversations)
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
        let now = ServerClock.wallMilliseconds()
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

extension MessagingCore {
    /// No WebSocket connection has this id (the gateway counts up from 1).
    static let serverConnectionID: UInt64 = 0

    /// The stand-in connection the server's own requests run on; `outbox` keeps what the
    /// core answers on it.
    static func serverConnection(_ outbox: CollectingOutbox = CollectingOutbox()) -> Connection {
        Connection(id: serverConnectionID, outbox: outbox, remoteAddress: "server")
    }
}

/// Keeps what the core writes to the server's stand-in connection: the `ack` of its send.
final class CollectingOutbox: Outbox {
    private let commands = Mutex<[GenericCommand]>([])

    var first: GenericCommand? { commands.withLock { $0.first } }
    func send(_ command: GenericCommand) { commands.withLock { $0.append(command) } }
    var backlog: Int { 0 }
    func close() {}
    var isOpen: Bool { true }
}
