import Foundation
import SwitchboardWire

/// `direct` (send a message) and the receiver's `ack`.
struct MessageCommands: Sendable {
    let context: CoreContext
    let delivery: Delivery
    let hooks: MessageHooks
    let push: any PushGateway
    let wills: WillMessages
    /// Where `_messageSent`, `_receiversOffline` and the push run, after the ack.
    let background: WorkQueue

    /// Validates, runs `_messageReceived`, stores, acks, delivers; then hands `_messageSent`
    /// and the push decision for offline members to the background queue.
    ///
    /// `byServer`: sent by the app's server through the REST API, which may send as anyone,
    /// member or not, silenced or not (as LeanCloud's does). `toSender`: the sender's other
    /// online devices get it too (the REST API's `no_sync` turns that off). `audience`: only
    /// these clients receive it and see it in history (the REST API's `to_clients`).
    func send(
        _ request: GenericCommand, from clientID: String, on connection: Connection, byServer: Bool = false, toSender: Bool = true,
        audience: [String]? = nil
    ) async throws -> GenericCommand? {
        let direct = request.directMessage
        guard direct.hasCid, let conversation = try await context.store.conversation(id: direct.cid),
              !conversation.isExpired(at: ServerClock.wallMilliseconds())
        else {
            // The SDK tells its user a temporary conversation expired by this code.
            if direct.cid.hasPrefix(Identifiers.temporaryPrefix) {
                throw CommandError(.temporaryConversationExpired, detail: "temporary conversation expired or does not exist")
            }
            throw CommandError(.invalidMessagingTarget, detail: "no such conversation")
        }
        guard byServer || conversation.members.contains(clientID) else {
            throw CommandError(.invalidMessagingTarget, detail: "\(clientID) is not a member of \(conversation.id)")
        }
        guard byServer || !conversation.isSilenced(clientID, at: ServerClock.wallMilliseconds()) else {
            throw CommandError(.silenced, detail: "\(clientID) is silenced in \(conversation.id)")
        }
        let content: MessageContent = direct.hasBinaryMsg ? .binary(Array(direct.binaryMsg)) : .text(direct.msg)
        guard content.byteCount <= context.settings.maxContentBytes else {
            throw CommandError(.frameTooLong, detail: "content is \(content.byteCount) bytes, at most \(context.settings.maxContentBytes) allowed")
        }
        let transient = direct.transient || conversation.isTransient
        let arrived = Message(
            id: Identifiers.messageID(),
            conversationID: conversation.id,
            from: clientID,
            content: content,
            timestamp: context.clock.next(),
            mentionAll: direct.mentionAll,
            mentionPids: direct.mentionPids,
            wantsReceipt: direct.r,
            clientToken: direct.dt.isEmpty ? nil : direct.dt,
            audience: audience
        )
        let decided = try await hooks.received(
            arrived, in: conversation.hookKind, recipients: conversation.recipients(of: arrived), transient: transient, sourceIP: connection.remoteAddress
        )
        var message = decided.message
        if direct.will {
            await wills.set(.init(message: message, conversation: conversation, recipients: decided.recipients, connectionID: connection.id), for: clientID)
            return Replies.ack(message, replyingTo: request)
        }
        if !direct.transient {
            // Chat rooms keep history but queue nothing: only members online now receive.
            let stored = try await context.store.append(message, queueFor: conversation.isTransient ? [] : decided.recipients)
            if stored.id != message.id {
                // Sent again after a lost ack: the first copy was stored and delivered.
                return Replies.ack(stored, replyingTo: request)
            }
            message = stored
            if let seq = stored.seq { context.presence.messageStored(seq: seq) }
        }

        connection.outbox.send(Replies.ack(message, replyingTo: request))
        if let patch = decided.patch {
            connection.outbox.send(PatchNotices.notice([PatchNotices.item(for: message, code: patch.code, reason: patch.detail)], to: clientID))
        }
        delivery.deliver(
            message, to: decided.recipients, conversation: conversation, except: connection.id, transient: transient,
            priority: MessagePriority(wire: request.priority), toSender: toSender
        )

        let online = await context.online(among: decided.recipients)
        let offline = online.count == decided.recipients.count ? [] : decided.recipients.filter { !online.contains($0) }
        let onlineInOrder = offline.isEmpty ? decided.recipients : decided.recipients.filter(online.contains)
        await hooks.sent(message, online: onlineInOrder, offline: offline, transient: transient, sourceIP: connection.remoteAddress)
        if !transient, !offline.isEmpty {
            let pushData = direct.hasPushData ? direct.pushData : nil
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
        return nil
    }
}
