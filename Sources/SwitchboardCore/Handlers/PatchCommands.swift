import SwitchboardWire

/// `patch/modify`: a sender edits or recalls messages. `_messageUpdate` decides first; the
/// members' online devices receive `patch/modified`, the others at their next login.
struct PatchCommands: Sendable {
    /// Edits and recalls one `patch/modify` may carry; SDKs send one.
    static let maxItems = 100

    let context: CoreContext
    let hooks: MessageHooks

    func modify(_ request: GenericCommand, from clientID: String, on connection: Connection) async throws -> GenericCommand {
        guard request.patchMessage.patches.count <= Self.maxItems else {
            throw CommandError(.unparseableRawMessage, detail: "at most \(Self.maxItems) changes per patch")
        }
        var lastPatchTime: Int64 = 0
        for item in request.patchMessage.patches {
            lastPatchTime = try await apply(item, from: clientID, on: connection)
        }
        var reply = Replies.reply(to: request, op: .modified)
        reply.patchMessage.lastPatchTime = lastPatchTime
        return reply
    }

    /// Applies one edit or recall; returns its patch time. `byServer`: asked by the app's
    /// server (REST API), which names the message by its time too, and may change it however
    /// old it is, whether or not its sender is still a member.
    func apply(_ item: PatchItem, from clientID: String, on connection: Connection, byServer: Bool = false) async throws -> Int64 {
        guard item.hasMid, var message = try await context.store.message(id: item.mid),
              !item.hasCid || item.cid == message.conversationID,
              !byServer || item.timestamp == message.timestamp
        else {
            throw CommandError(.messageNotFound, detail: "no message \(item.mid)")
        }
        guard let conversation = try await context.store.conversation(id: message.conversationID),
              byServer || conversation.members.contains(clientID)
        else {
            throw CommandError(.invalidMessagingTarget, detail: "\(clientID) is not a member of \(message.conversationID)")
        }
        guard message.from == clientID else {
            throw CommandError(.messageOwnershipRequired, detail: "only \(message.from) may change message \(message.id)")
        }
        if !byServer { try checkAllowed(recall: item.recall, sentAt: message.timestamp) }

        if item.recall {
            message.content = .text(PatchNotices.recalledContent)
            message.mentionAll = false
            message.mentionPids = []
        } else {
            message.content = item.hasBinaryMsg ? .binary(Array(item.binaryMsg)) : .text(item.data)
            guard message.content.byteCount <= context.settings.maxContentBytes else {
                throw CommandError(.frameTooLong, detail: "content is \(message.content.byteCount) bytes, at most \(context.settings.maxContentBytes) allowed")
            }
            message.mentionAll = item.mentionAll
            message.mentionPids = item.mentionPids
        }
        let decided = try await hooks.update(
            message, in: conversation.hookKind, recipients: conversation.recipients(of: message), recall: item.recall, sourceIP: connection.remoteAddress
        )
        var changed = decided.message
        changed.patchTimestamp = context.clock.next()
        try await context.store.updateMessage(changed)
        context.logger.info("message changed", metadata: [
            "client": "\(clientID)", "message": "\(changed.id)", "recall": "\(item.recall)",
        ])

        let patch = PatchNotices.item(for: changed)
        let members = Set(decided.recipients + [clientID])
        for member in members {
            for target in context.presence.connections(of: member) where !(member == clientID && target.id == connection.id) {
                HeldNotices.send(PatchNotices.notice([patch], to: member), to: target)
            }
        }
        context.relay(PatchNotices.notice([patch], to: clientID), to: Array(members))
        if let rewrite = decided.patch {
            connection.outbox.send(PatchNotices.notice([PatchNotices.item(for: changed, code: rewrite.code, reason: rewrite.detail)], to: clientID))
        }
        return changed.patchTimestamp ?? 0
    }

    private func checkAllowed(recall: Bool, sentAt timestamp: Int64) throws {
        let refusal: ErrorCode = recall ? .messageRecallDisabled : .messageEditDisabled
        guard recall ? context.settings.recallAllowed : context.settings.editingAllowed else {
            throw CommandError(refusal, detail: recall ? "recalling messages is turned off" : "editing messages is turned off")
        }
        if let window = context.settings.editWindow, ServerClock.wallMilliseconds() - timestamp > window * 1000 {
            throw CommandError(refusal, detail: "messages may be changed for \(window) seconds after sending")
        }
    }
}
