import SwitchboardWire

/// Sending: validates, runs `_messageReceived`, stores, delivers; then hands `_messageSent`
/// and the push decision for offline members to the background queue.
public struct MessageSending: Sendable {
    let context: CoreContext
    let delivery: Delivery
    let hooks: MessageHooks
    let push: any PushGateway
    let wills: WillMessages
    /// Where `_messageSent`, `_receiversOffline` and the push run, after the ack.
    let background: WorkQueue

    /// Sends `outgoing` in the caller's name. A client sends as a member who is not
    /// silenced; the app's server sends as anyone, member or not, silenced or not (as
    /// LeanCloud's REST API does).
    ///
    /// `acknowledge` is called with the stored message before anyone else hears of it: the
    /// gateway writes the sender's ack there, so that the sender's connection receives the
    /// ack, then the hook's rewrite notice, then the others' copies. It is not called when
    /// the message is not delivered now (a will, or a message sent again after a lost ack).
    public func send(_ outgoing: OutgoingMessage, by caller: Caller, acknowledge: (Message) -> Void = { _ in }) async throws -> SentMessage {
        let clientID = caller.clientID
        guard let conversation = try await context.store.conversation(id: outgoing.conversationID),
              !conversation.isExpired(at: context.clock.now())
        else {
            // The SDK tells its user a temporary conversation expired by this code.
            if outgoing.conversationID.hasPrefix(Identifiers.temporaryPrefix) {
                throw CommandError(.temporaryConversationExpired, detail: "temporary conversation expired or does not exist")
            }
            throw CommandError(.invalidMessagingTarget, detail: "no such conversation")
        }
        try conversation.requireMember(caller, or: .invalidMessagingTarget)
        guard !caller.isClient || !conversation.isSilenced(clientID, at: context.clock.now()) else {
            throw CommandError(.silenced, detail: "\(clientID) is silenced in \(conversation.id)")
        }
        let content = outgoing.content
        guard content.byteCount <= context.settings.maxContentBytes else {
            throw CommandError(.frameTooLong, detail: "content is \(content.byteCount) bytes, at most \(context.settings.maxContentBytes) allowed")
        }
        let transient = outgoing.transient || conversation.isTransient
        let arrived = Message(
            id: Identifiers.messageID(),
            conversationID: conversation.id,
            from: clientID,
            content: content,
            timestamp: SendTurn.current?.timestamp ?? context.clock.next(),
            mentionAll: outgoing.mentionAll,
            mentionPids: outgoing.mentionPids,
            wantsReceipt: outgoing.wantsReceipt,
            clientToken: outgoing.clientToken,
            audience: outgoing.audience
        )
        let decided = try await hooks.received(
            arrived, in: conversation.hookKind, recipients: conversation.recipients(of: arrived), transient: transient, sourceIP: caller.sourceIP
        )
        // A connection's messages run their hooks side by side (see `SendSequence`); from here
        // they go in the order sent: into the store, then out to the sender and the others.
        let turn = SendTurn.current
        await turn?.waitForEarlierPlaces()
        var message = decided.message
        if outgoing.isWill, let connection = caller.connection {
            await wills.set(.init(message: message, conversation: conversation, recipients: decided.recipients, connectionID: connection.id), for: clientID)
            return SentMessage(message: message, outcome: .heldAsWill)
        }
        if !outgoing.transient {
            let queueing = conversation.queueing(of: message, to: decided.recipients)
            let stored = try await context.store.append(message, queueFor: queueing) { turn?.hasPlace() }
            if stored.id != message.id {
                // Sent again after a lost ack: the first copy was stored and delivered.
                return SentMessage(message: stored, outcome: .alreadySent)
            }
            message = stored
            if let seq = stored.seq { context.presence.messageStored(seq: seq) }
        }
        // A stored message took its place as it was queued; a transient one, which writes
        // nothing, takes it here.
        turn?.hasPlace()
        await turn?.waitForEarlierSends()

        acknowledge(message)
        if let patch = decided.patch, let connection = caller.connection {
            connection.outbox.send(PatchNotices.notice([PatchNotices.item(for: message, code: patch.code, reason: patch.detail)], to: clientID))
        }
        delivery.deliver(
            message, to: decided.recipients, conversation: conversation, except: caller.connection?.id, transient: transient,
            priority: outgoing.priority, toSender: outgoing.toSender
        )
        turn?.isDelivered()

        let online = await context.online(among: decided.recipients)
        let offline = online.count == decided.recipients.count ? [] : decided.recipients.filter { !online.contains($0) }
        let onlineInOrder = offline.isEmpty ? decided.recipients : decided.recipients.filter(online.contains)
        await hooks.sent(message, online: onlineInOrder, offline: offline, transient: transient, sourceIP: caller.sourceIP)
        if !transient, !offline.isEmpty {
            let pushData = outgoing.pushData
            await background.submit { [hooks, push, context, message] in
                guard var notice = await hooks.receiversOffline(
                    message, offline: offline, mutedBy: conversation.mutedBy, clientPushData: pushData, template: context.settings.pushTemplate
                ) else { return }
                do {
                    notice.devices = try await context.store.pushDevices(of: notice.recipients)
                } catch {
                    context.logger.error("push devices unavailable; pushing without them", metadata: ["error": "\(error)"])
                }
                await push.push(notice)
            }
        }
        return SentMessage(message: message, outcome: .delivered)
    }
}
