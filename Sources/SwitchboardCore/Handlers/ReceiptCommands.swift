import SwitchboardWire

/// Delivery and read receipts: acks and `read` move a member's positions; senders who asked
/// (`r`) hear `rcp` in conversations of up to two members, as on LeanCloud; `conv/max_read`
/// answers the positions, per member for groups.
struct ReceiptCommands: Sendable {
    /// LeanCloud sends receipts only in conversations this small.
    static let receiptMembersLimit = 2
    /// Messages one `ack` may name: more than a delivery batch, which is what SDKs ack.
    static let maxAckIDs = 1000
    /// Conversations one `read` may mark.
    static let maxReadConversations = 200

    let context: CoreContext

    /// A receiving client confirms messages; they are no longer redelivered to it. The JS SDK
    /// acks a conversation's time range (`cid`, `fromts`, `tots`), the Android SDK everything
    /// up to a time after each page of history it fetched (`cid`, `tots`: java-unified-sdk
    /// `LCSession.java` 502-514); the SDKs name what they received live (`mid`, `ids`).
    /// Acks get no reply.
    func acknowledge(_ request: GenericCommand, from clientID: String, on connection: Connection) async throws -> GenericCommand? {
        // Acks are the device's: its other devices still receive what it acknowledged.
        guard let device = context.presence.session(clientID: clientID, connectionID: connection.id)?.device else { return nil }
        let ack = request.ackMessage
        var acknowledged: [AcknowledgedMessage] = []
        var fetched: [AcknowledgedMessage] = []
        if ack.hasCid, ack.hasTots, ack.fromts <= ack.tots {
            let range = ack.fromts...ack.tots
            acknowledged += try await context.store.acknowledge(device, conversationID: ack.cid, timestamps: range)
            // By time alone, after a page of history: what it fetched was never this
            // device's to acknowledge (a client that works from unread counts has nothing
            // queued to move past), and its senders wait for receipts. A range (the
            // JavaScript SDK's) covers what it received live, acknowledged above.
            if !ack.hasFromts, try await context.store.conversation(id: ack.cid)?.members.contains(clientID) == true {
                fetched = try await context.store.takeReceipts(for: clientID, conversationID: ack.cid, timestamps: range)
            }
        }
        var ids = ack.ids
        if ack.hasMid { ids.append(ack.mid) }
        guard ids.count <= Self.maxAckIDs else {
            throw CommandError(.unparseableRawMessage, detail: "at most \(Self.maxAckIDs) message ids per ack")
        }
        acknowledged += try await context.store.acknowledge(device, messageIDs: ids)
        context.deliveryTimes.acknowledged(acknowledged.map(\.seq), by: device)
        let wanting = acknowledged.filter { $0.wantsReceipt && $0.from != clientID }
        let due = try await context.store.takeReceipts(of: wanting.map(\.seq))
        try await sendDeliveryReceipts(for: wanting.filter { due.contains($0.seq) } + fetched, deliveredTo: clientID)
        return nil
    }

    /// `read`: the client has read conversations up to a time (the newest message if none is
    /// given). No reply; the other member of a one-to-one conversation gets a read receipt.
    func read(_ request: GenericCommand, from clientID: String) async throws -> GenericCommand? {
        let read = request.readMessage
        var positions = read.convs.map { ($0.cid, $0.hasTimestamp ? $0.timestamp : nil as Int64?) }
        positions += (read.cids + (read.hasCid ? [read.cid] : [])).map { ($0, nil) }
        guard positions.count <= Self.maxReadConversations else {
            throw CommandError(.unparseableRawMessage, detail: "at most \(Self.maxReadConversations) conversations per read")
        }
        if !positions.isEmpty {
            // The app shows what is unread itself; the icon's count starts again.
            try await context.store.clearBadges(of: clientID)
        }
        for (conversationID, timestamp) in positions {
            guard let conversation = try await context.store.conversation(id: conversationID),
                  conversation.members.contains(clientID)
            else { continue }
            let upTo = timestamp ?? conversation.lastMessageAt ?? context.clock.now()
            try await context.store.markRead(clientID: clientID, conversationID: conversationID, upTo: upTo)
            // Every device of the reader shows the conversation as read.
            let remaining = try await context.store.unreadSummaries(for: clientID, since: 0, conversationID: conversationID).first
            let cleared = remaining ?? UnreadSummary(conversationID: conversationID, count: 0, mentioned: false, lastMessage: nil)
            send(UnreadNotices.notice([cleared], to: clientID, at: context.clock.now()), to: clientID)
            guard conversation.members.count <= Self.receiptMembersLimit else { continue }
            var receipt = RcpCommand()
            receipt.cid = conversationID
            receipt.t = upTo
            receipt.read = true
            receipt.from = clientID
            for member in conversation.members where member != clientID {
                send(receipt, to: member)
            }
        }
        return nil
    }

    /// `conv/max_read`: the newest timestamps the other members received and read; with
    /// `queryAllMembers`, each member's.
    func maxRead(_ request: GenericCommand, from clientID: String) async throws -> GenericCommand {
        let cid = request.convMessage.cid
        guard let conversation = try await context.store.conversation(id: cid) else {
            throw CommandError(.conversationNotFound, detail: "no conversation \(cid)")
        }
        guard conversation.members.contains(clientID) else {
            throw CommandError(.conversationMembershipRequired, detail: "\(clientID) is not a member of \(cid)")
        }
        let others = try await context.store.receiptPositions(conversationID: cid).filter {
            $0.clientID != clientID && conversation.members.contains($0.clientID)
        }
        var reply = Replies.reply(to: request, op: .maxRead)
        reply.convMessage.cid = cid
        reply.convMessage.maxAckTimestamp = others.map(\.acknowledgedUpTo).max() ?? 0
        reply.convMessage.maxReadTimestamp = others.map(\.readUpTo).max() ?? 0
        if request.convMessage.queryAllMembers {
            reply.convMessage.maxReadTuples = others.map { position in
                var tuple = MaxReadTuple()
                tuple.pid = position.clientID
                tuple.maxAckTimestamp = position.acknowledgedUpTo
                tuple.maxReadTimestamp = position.readUpTo
                return tuple
            }
        }
        return reply
    }

    private func sendDeliveryReceipts(for messages: [AcknowledgedMessage], deliveredTo clientID: String) async throws {
        guard !messages.isEmpty else { return }
        let conversations = try await context.store.conversations(ids: Array(Set(messages.map(\.conversationID))))
        let small = Set(conversations.filter { $0.members.count <= Self.receiptMembersLimit }.map(\.id))
        let now = context.clock.now()
        for message in messages where small.contains(message.conversationID) {
            var receipt = RcpCommand()
            receipt.id = message.id
            receipt.cid = message.conversationID
            receipt.t = now
            receipt.from = clientID
            send(receipt, to: message.from)
        }
    }

    private func send(_ receipt: RcpCommand, to clientID: String) {
        var command = Replies.notification(.rcp, to: clientID)
        command.rcpMessage = receipt
        send(command, to: clientID)
    }

    private func send(_ command: GenericCommand, to clientID: String) {
        context.sendHere(command, to: [clientID])
        context.relay(command, to: [clientID])
    }
}
