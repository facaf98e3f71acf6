import Foundation
import Metrics
import SwitchboardWire

/// Puts messages in front of the connections that should see them.
struct Delivery: Sendable {
    let context: CoreContext
    /// Chat-room messages left out for connections that were behind.
    let shed: Counter

    /// Sends `message` to every online session of `recipients` (nil: of every client online,
    /// for a broadcast), on this node and the others, and (unless not `toSender`) to the
    /// sender's other sessions so that a message sent from one device shows on the others.
    /// In chat rooms connections that are behind get only what `priority` admits.
    func deliver(
        _ message: Message, to recipients: [String]?, conversation: Conversation, except origin: UInt64?, transient: Bool,
        priority: MessagePriority = .normal, toSender: Bool = true
    ) {
        let command = SharedCommand(Self.directCommand(for: message, conversation: conversation, offline: false, transient: transient))
        var targets = recipients.map { Set($0) }
        if toSender { targets?.insert(message.from) }
        deliverHere(
            command, to: targets, from: message.from, seq: message.seq, inChatRoom: conversation.isTransient, priority: priority, except: origin
        )
        context.link.publish(.delivery(Self.relayed(message, command, to: recipients, conversation: conversation, priority: priority, toSender: toSender)))
    }

    /// `message`, sent as `command`, as other nodes take it.
    static func relayed(
        _ message: Message, _ command: SharedCommand, to recipients: [String]?, conversation: Conversation, priority: MessagePriority = .normal,
        toSender: Bool = true
    ) -> RelayedDelivery {
        RelayedDelivery(
            command: Data(command.protobuf), recipients: toSender ? recipients.map { $0 + [message.from] } : recipients, from: message.from,
            seq: message.seq, inChatRoom: conversation.isTransient, priority: priority.rawValue
        )
    }

    /// Sends a message to the sessions on this node of `targets` (nil: of every client
    /// online). Recipients' sessions whose catch-up from the store covers the message are
    /// skipped, and so is `origin`, the sender's connection, which has the message already.
    func deliverHere(
        _ command: SharedCommand, to targets: Set<String>?, from sender: String, seq: Int64?, inChatRoom: Bool, priority: MessagePriority,
        except origin: UInt64?
    ) {
        for clientID in targets ?? everyClientOnline(whenStored: seq != nil) {
            // Only what is queued for a client comes in its catch-up: the sender's own copy and
            // chat-room messages always go live.
            let queued = clientID != sender && !inChatRoom
            for session in context.presence.sessions(of: clientID) {
                if queued, let seq, !session.takesLive(seq: seq) {
                    lookUpMissed(seq, for: session)
                    continue
                }
                let connection = session.connection
                // The sending session itself already has the message; other clients sharing its
                // connection do not.
                if clientID == sender, connection.id == origin { continue }
                if inChatRoom, !priority.admits(backlog: connection.outbox.backlog) {
                    shed.increment()
                    continue
                }
                context.presence.send(command, to: session)
            }
        }
    }

    /// Who a broadcast reaches here. A stored one skips sessions still catching up: they get
    /// it with the broadcasts their login reads once the catch-up is over. A transient one is
    /// not there to read, so they get it too, kept for them until they have caught up.
    private func everyClientOnline(whenStored stored: Bool) -> Set<String> {
        stored ? Set(context.presence.onlineDevices.keys.map(\.clientID)) : Set(context.presence.allSessions.map(\.device.clientID))
    }

    /// The session's catch-up covers `seq`, but may have missed it (see `Presence`): looked
    /// up in the store now, or once the catch-up is over.
    private func lookUpMissed(_ seq: Int64, for session: Presence.Session) {
        guard context.presence.missed(seq: seq, by: session) else { return }
        Task {
            do {
                try await sendMissed([seq], to: session)
            } catch {
                context.logger.warning("a message the catch-up missed waits for redelivery", metadata: ["seq": "\(seq)", "error": "\(error)"])
            }
        }
    }

    /// Sends a session those of `seqs` still pending for its device that were not delivered
    /// to it since it opened: the ones its catch-up missed.
    func sendMissed(_ seqs: [Int64], to session: Presence.Session) async throws {
        guard let first = seqs.min(), let last = seqs.max() else { return }
        try await sendAllPending(to: session.device, on: [session.connection], from: first, through: last, lastDeliveredBefore: session.openedAt)
    }

    /// `sendPending`, batch after batch, until everything from `first` through `last` is sent.
    func sendAllPending(
        to device: DeviceAddress, on connections: [Connection], from first: Int64, through last: Int64, lastDeliveredBefore cutoff: Int64
    ) async throws {
        var next = first
        while next <= last, let sent = try await sendPending(to: device, on: connections, seqs: next...last, lastDeliveredBefore: cutoff) {
            next = sent + 1
        }
    }

    /// Sends a delivery another node relayed to the sessions here it names.
    func deliverHere(_ command: SharedCommand, _ relayed: RelayedDelivery) {
        deliverHere(
            command, to: relayed.recipients.map { Set($0) }, from: relayed.from, seq: relayed.seq, inChatRoom: relayed.inChatRoom,
            priority: MessagePriority(wire: relayed.priority), except: nil
        )
    }

    /// Sends a device logging in the app-wide broadcasts sent since it was last seen (all
    /// that are still valid, for a new device).
    func sendBroadcasts(to clientID: String, on connection: Connection, sentAfter: Int64) async throws {
        let broadcasts = try await context.store.broadcasts(
            in: nil, sentAfter: sentAfter, validAt: context.clock.now(), skip: 0, limit: Self.maxBroadcastsPerLogin
        )
        guard !broadcasts.isEmpty else { return }
        let conversations = try await context.store.conversations(ids: Array(Set(broadcasts.map(\.conversationID))))
        for message in broadcasts {
            guard let conversation = conversations.first(where: { $0.id == message.conversationID }) else { continue }
            var command = Self.directCommand(for: message, conversation: conversation, offline: true, transient: false)
            command.peerID = clientID
            connection.outbox.send(command)
        }
    }

    /// LeanCloud allows 30 broadcasts a day; a month of them is plenty for one login.
    static let maxBroadcastsPerLogin = 1000

    /// Reads one batch of what `device` has still to receive, stored within `seqs`, and sends
    /// `connections` the messages of it last delivered before `cutoff`: its catch-up at login,
    /// the overdue at redelivery. Returns the batch's last `seq` when it was full (more may
    /// follow).
    @discardableResult
    func sendPending(to device: DeviceAddress, on connections: [Connection], seqs: ClosedRange<Int64>, lastDeliveredBefore cutoff: Int64) async throws -> Int64? {
        let pending = try await context.store.pendingMessages(for: device, seqs: seqs, limit: context.settings.deliveryBatch)
        let due = pending.filter { context.deliveryTimes.lastDelivery(of: $0, to: device) < cutoff }
        if !due.isEmpty {
            let conversations = try await context.store.conversations(ids: Array(Set(due.map(\.conversationID))))
            // Before they go: once a message arrives, the device may act on it (ack it, or a
            // redelivery round may look at it), and its time must be this one by then.
            context.deliveryTimes.sent(due.compactMap(\.seq), to: device, at: context.clock.now())
            let byID = Dictionary(conversations.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for message in due {
                guard let conversation = byID[message.conversationID] else { continue }
                var command = Self.directCommand(for: message, conversation: conversation, offline: true, transient: false)
                command.peerID = device.clientID
                for connection in connections {
                    connection.outbox.send(command)
                }
            }
        }
        return pending.count == context.settings.deliveryBatch ? pending.last?.seq : nil
    }

    /// Sends the edits and recalls made since `since` in `clientID`'s conversations.
    func sendPatches(to clientID: String, on connection: Connection, since: Int64) async throws {
        let changed = try await context.store.patchedMessages(visibleTo: clientID, since: since, limit: context.settings.deliveryBatch)
        guard !changed.isEmpty else { return }
        connection.outbox.send(PatchNotices.notice(changed.map { PatchNotices.item(for: $0) }, to: clientID))
    }

    static func directCommand(for message: Message, conversation: Conversation, offline: Bool, transient: Bool) -> GenericCommand {
        var direct = DirectCommand()
        direct.id = message.id
        direct.cid = message.conversationID
        direct.fromPeerID = message.from
        direct.timestamp = message.timestamp
        switch message.content {
        case .text(let text): direct.msg = text
        case .binary(let bytes): direct.binaryMsg = .init(bytes)
        }
        if offline { direct.offline = true }
        if transient { direct.transient = true }
        if message.mentionAll { direct.mentionAll = true }
        direct.mentionPids = message.mentionPids
        if let patched = message.patchTimestamp { direct.patchTimestamp = patched }
        direct.convType = Int32(conversation.kind.rawValue)
        var command = GenericCommand()
        command.cmd = .direct
        command.service = RealtimeService.instantMessaging
        command.directMessage = direct
        return command
    }
}
