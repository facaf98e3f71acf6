import Logging
import SwitchboardData
import SwitchboardJSON
import SwitchboardHooks
import SwitchboardWire

/// The messaging core: takes decoded commands from a connection and carries them out.
/// The gateway feeds it; it knows nothing of sockets or frames.
public final class MessagingCore: Sendable {
    public let presence = Presence()
    let context: CoreContext
    /// The core's time of day and message timestamps.
    public var clock: ServerClock { context.clock }
    let sessions: SessionCommands
    /// The session tokens handed out at login, which the client REST API also takes.
    public let sessionTokens: SessionTokens
    /// The core's operations, in a caller's name (`Caller`): the WebSocket gateway's
    /// handlers and the REST API's routes are adapters over these.
    public let conversations: ConversationOperations
    private let conversationCommands: ConversationCommands
    private let conversationQueries: ConversationQueries
    private let conversationChecks: ConversationChecks
    public let sending: MessageSending
    private let messages: MessageCommands
    public let reading: MessageHistory
    private let history: HistoryCommands
    public let editing: MessageEditing
    private let patches: PatchCommands
    private let receipts: ReceiptCommands
    let delivery: Delivery
    let clientHooks: ClientHooks
    let wills: WillMessages
    private let noticesAwaitingRelease = NoticesAwaitingRelease()
    let pushChannels = PushChannels()
    let pushChannelCommands: PushChannelCommands

    /// - Parameters:
    ///   - hooks: the handlers consulted at every hook point.
    ///   - push: where push decisions for offline members go.
    ///   - background: runs what follows a reply: observing hooks, push decisions, pushes.
    ///   - link: the other nodes sharing `store`; none by default.
    ///   - clock: the time of day; the system's by default.
    public init(
        settings: CoreSettings, store: any MessageStore, hooks: HookPipeline, push: any PushGateway, background: WorkQueue,
        link: any NodeLink = SingleNode(), clock: any WallClock = SystemWallClock(), logger: Logger
    ) {
        let context = CoreContext(settings: settings, store: store, presence: presence, link: link, clock: ServerClock(wall: clock), logger: logger)
        wills = WillMessages(link: link)
        let shed = hooks.metrics.makeCounter(
            subsystem: "room", name: "messages_shed", help: "Chat-room messages dropped for a member who fell behind, lowest priority first."
        )
        let delivery = Delivery(context: context, shed: shed)
        self.context = context
        self.delivery = delivery
        clientHooks = ClientHooks(pipeline: hooks, background: background)
        sessionTokens = SessionTokens(masterKey: settings.masterKey)
        sessions = SessionCommands(context: context, tokens: sessionTokens, delivery: delivery, hooks: clientHooks, wills: wills)
        let longConnection = LongConnectionPush(
            channels: pushChannels, link: link, clustered: !(link is SingleNode), counters: .init(metrics: hooks.metrics), next: push
        )
        pushChannelCommands = PushChannelCommands(context: context, channels: pushChannels, push: longConnection)
        conversations = ConversationOperations(context: context, notifier: Notifier(context: context), hooks: ConversationHooks(pipeline: hooks, background: background))
        conversationCommands = ConversationCommands(operations: conversations)
        conversationQueries = ConversationQueries(operations: conversations)
        conversationChecks = ConversationChecks(operations: conversations)
        let messageHooks = MessageHooks(pipeline: hooks, background: background, maxContentBytes: settings.maxContentBytes)
        sending = MessageSending(context: context, delivery: delivery, hooks: messageHooks, push: longConnection, wills: wills, background: background)
        messages = MessageCommands(sending: sending)
        editing = MessageEditing(context: context, hooks: messageHooks)
        patches = PatchCommands(editing: editing)
        receipts = ReceiptCommands(context: context)
        reading = MessageHistory(context: context)
        history = HistoryCommands(reading: reading)
    }

    /// Brings in-memory state in line with the store; call once before serving.
    public func prepare() async throws {
        if let latest = try await context.store.latestMessageTimestamp() {
            context.clock.advance(past: latest)
        }
        presence.messageStored(seq: try await context.store.latestMessageSeq())
    }

    /// Carries out one command and sends its reply, or the error reply LeanCloud's SDKs
    /// expect, to the connection. Never throws: a failed command fails alone.
    ///
    /// Called with a connection's commands one at a time, in order. A message returns once
    /// admitted to the connection's `SendSequence`, and is handled beside the messages after
    /// it; any other command first waits for the connection's messages to be done.
    public func handle(_ request: GenericCommand, on connection: Connection) async {
        if request.cmd == .direct {
            let turn = await connection.sends.admit { context.clock.next() }
            Task {
                await SendTurn.$current.withValue(turn) { await respond(to: request, on: connection) }
                turn.finish()
            }
            return
        }
        await connection.sends.drain()
        await respond(to: request, on: connection)
    }

    private func respond(to request: GenericCommand, on connection: Connection) async {
        // Conversation, blacklist and patch commands are the ones that notify others while
        // replying; the rest (sends, acks: the hot path) skip the holding.
        let notices: HeldNotices? = switch request.cmd {
        case .conv, .blacklist, .patch: HeldNotices(connectionID: connection.id)
        default: nil
        }
        defer { notices?.release(to: connection, awaiting: noticesAwaitingRelease) }
        let reply: GenericCommand?
        do {
            reply = try await HeldNotices.$current.withValue(notices, operation: { try await route(request, on: connection) })
        } catch let failure as CommandError {
            context.logger.debug("command refused", metadata: [
                "cmd": "\(request.cmd)", "op": "\(request.op)", "code": "\(failure.code.rawValue)", "detail": "\(failure.detail ?? "")",
            ])
            reply = Self.errorReply(failure, to: request)
        } catch {
            context.logger.error("command failed", metadata: ["cmd": "\(request.cmd)", "op": "\(request.op)", "error": "\(error)"])
            reply = Self.errorReply(CommandError(.internalError), to: request)
        }
        // A refused message's reply, like an ack, comes after those of the messages before it.
        await SendTurn.current?.waitForEarlierSends()
        if let reply {
            if noticesAwaitingRelease.sendBeforeReply(on: connection) {
                try? await Task.sleep(for: HeldNotices.gapBeforeReply)
            }
            connection.outbox.send(reply)
        }
    }

    /// A socket closed: its sessions end. `silentFor` is how long before the close the
    /// client last sent anything: notices sent since may not have reached it (a network that
    /// dies silently is only noticed at the idle timeout), so its next login gets them.
    public func connectionClosed(_ connection: Connection, silentFor: Duration = .zero) async {
        // Its messages still in flight are stored and delivered first: a will one of them
        // sets must be there to go out now.
        await connection.sends.drain()
        pushChannels.close(connectionID: connection.id)
        let lastHeard = context.clock.now() - Int64(silentFor / .milliseconds(1))
        for (clientID, session) in presence.closeAll(connectionID: connection.id) {
            context.logger.info("session ended by disconnect", metadata: ["client": "\(clientID)", "connection": "\(connection.id)"])
            await context.link.sessionClosed(session)
            await clientHooks.offline(clientID, session: session, closeCode: .connectionLost, message: "connection lost")
            await context.deviceLeft(session.device, at: lastHeard)
            if let will = wills.take(for: clientID, droppedConnection: connection.id) {
                var message = will.message
                message.timestamp = context.clock.next()
                delivery.deliver(message, to: will.recipients, conversation: will.conversation, except: nil, transient: false)
                await wills.delivered(for: clientID)
                context.logger.info("will message delivered", metadata: ["client": "\(clientID)", "conversation": "\(message.conversationID)"])
            }
        }
    }

    /// Sends again what online devices received but have not acknowledged for a while.
    public func redeliverUnacknowledged() async {
        let cutoff = context.clock.now() - context.settings.redeliveryInterval * 1000
        for (device, connections) in presence.onlineDevices {
            do {
                try await delivery.sendPending(to: device, on: connections, seqs: 1...Int64.max, lastDeliveredBefore: cutoff)
            } catch {
                context.logger.error("redelivery failed", metadata: ["client": "\(device.clientID)", "device": "\(device.key)", "error": "\(error)"])
            }
        }
    }

    /// Forgets devices not seen for `retention`, with the messages queued for them (those
    /// stay in history).
    public func forgetStaleDevices(retention: Duration) async {
        do {
            let forgotten = try await context.store.forgetDevices(unseenSince: context.clock.now() - retention.components.seconds * 1000)
            if forgotten > 0 { context.logger.info("stale devices forgotten", metadata: ["count": "\(forgotten)"]) }
        } catch {
            context.logger.error("forgetting stale devices failed", metadata: ["error": "\(error)"])
        }
    }

    /// `_Conversation` as LeanStorage showed it, from this core's store (see `StoredConversations`).
    public var storedConversations: StoredConversations { StoredConversations(store: context.store, clock: context.clock.wall) }
    /// The IM classes as LeanStorage showed them, from this core's store (see `IMClasses.stored`).
    public var imClasses: IMClasses { .stored(in: context.store, clock: context.clock.wall) }

    /// Deletes the temporary conversations whose TTL has passed, with their messages.
    public func deleteExpiredConversations() async {
        do {
            let deleted = try await context.store.deleteConversations(expiredBefore: context.clock.now())
            if deleted > 0 { context.logger.info("expired conversations deleted", metadata: ["count": "\(deleted)"]) }
        } catch {
            context.logger.error("deleting expired conversations failed", metadata: ["error": "\(error)"])
        }
    }

    private func route(_ request: GenericCommand, on connection: Connection) async throws -> GenericCommand? {
        switch (request.cmd, request.op) {
        case (.echo, _):
            return Replies.reply(to: request)
        case (.session, .open):
            try await sessions.open(request, on: connection)
            return nil
        case (.login, _):
            return try pushChannelCommands.login(request, on: connection)
        case (.ack, _) where PushChannelCommands.isPushAck(request):
            pushChannelCommands.acknowledge(request, on: connection)
            return nil
        default:
            break
        }
        let clientID = try actingClient(request, on: connection)
        switch (request.cmd, request.op) {
        case (.session, .close):
            let reply = await sessions.close(request, clientID: clientID, on: connection)
            if await context.online(among: [clientID]).isEmpty { await conversations.leaveChatRooms(of: clientID) }
            return reply
        case (.session, .refresh): return sessions.refresh(request, clientID: clientID, on: connection)
        case (.session, .query): return await sessions.onlineStatus(request)
        case (.report, .upload): return try await sessions.report(request, clientID: clientID, on: connection)
        case (.conv, .start): return try await conversationCommands.start(request, from: clientID, on: connection)
        case (.conv, .add), (.conv, .remove), (.conv, .update), (.conv, .mute), (.conv, .unmute),
             (.conv, .memberInfoUpdate), (.conv, .addShutup), (.conv, .removeShutup), (.blacklist, .block), (.blacklist, .unblock):
            return try await conversationCommands.change(request, from: clientID, on: connection)
        case (.conv, .queryShutup): return try await conversationQueries.silencedMembers(request, from: clientID)
        case (.blacklist, .query): return try await conversationQueries.blockedClients(request, from: clientID)
        case (.conv, .query): return try await conversationQueries.query(request, from: clientID)
        case (.conv, .count): return try await conversationQueries.count(request, from: clientID)
        case (.conv, .isMember): return try await conversationChecks.membership(request, from: clientID)
        case (.conv, .members): return try await conversationChecks.onlineMembers(request, from: clientID)
        case (.conv, .checkShutup): return try await conversationChecks.silenced(request, from: clientID)
        case (.blacklist, .checkBlock): return try await conversationChecks.blocked(request, from: clientID)
        case (.direct, _): return try await messages.send(request, from: clientID, on: connection)
        case (.conv, .maxRead): return try await receipts.maxRead(request, from: clientID)
        case (.ack, _): return try await receipts.acknowledge(request, from: clientID, on: connection)
        case (.patch, .modify): return try await patches.modify(request, from: clientID, on: connection)
        case (.logs, _): return try await history.query(request, from: clientID, on: connection)
        case (.read, _): return try await receipts.read(request, from: clientID)
        default:
            throw CommandError(.unparseableRawMessage, detail: "unsupported command \(request.cmd)/\(request.op)")
        }
    }

    /// The client a command acts for: its `peerId`, which must have a session on this
    /// connection; a connection with a single session may leave `peerId` out.
    private func actingClient(_ request: GenericCommand, on connection: Connection) throws -> String {
        if request.hasPeerID, !request.peerID.isEmpty {
            guard presence.hasSession(clientID: request.peerID, connectionID: connection.id) else {
                throw CommandError(.sessionRequired, detail: "no open session for \(request.peerID)")
            }
            return request.peerID
        }
        let clients = presence.clients(on: connection.id)
        guard clients.count == 1, let only = clients.first else {
            throw CommandError(.sessionRequired, detail: "open a session first")
        }
        return only
    }

    private static func errorReply(_ failure: CommandError, to request: GenericCommand) -> GenericCommand {
        switch (request.cmd, request.op) {
        case (.direct, _):
            return Replies.failedAck(failure, replyingTo: request)
        case (.session, .open) where failure.code == .sessionTokenExpired:
            // An error, not `closed`: the SDK drops its token and opens again only on this.
            return Replies.error(failure, replyingTo: request)
        case (.session, .open):
            var closed = Replies.reply(to: request, op: .closed)
            closed.sessionMessage.code = failure.code.rawValue
            closed.sessionMessage.reason = failure.code.reason
            if let detail = failure.detail { closed.sessionMessage.detail = detail }
            return closed
        default:
            return Replies.error(failure, replyingTo: request)
        }
    }
}
