import SwitchboardWire

/// Edits and recalls: `_messageUpdate` decides first; the members' online devices receive
/// `patch/modify`, the others at their next login.
public struct MessageEditing: Sendable {
    let context: CoreContext
    let hooks: MessageHooks

    /// Applies one edit or recall and returns the message as changed (its `patchTimestamp`
    /// set). A client changes its own messages, as a member, within the app's edit rules;
    /// the app's server changes a sender's message however old it is, whether or not the
    /// sender is still a member.
    public func change(_ change: MessageChange, by caller: Caller) async throws -> Message {
        let clientID = caller.clientID
        guard var message = try await context.store.message(id: change.messageID),
              change.conversationID.map({ $0 == message.conversationID }) ?? true,
              change.sentAt.map({ $0 == message.timestamp }) ?? true
        else {
            throw CommandError(.messageNotFound, detail: "no message \(change.messageID)")
        }
        guard let conversation = try await context.store.conversation(id: message.conversationID) else {
            throw CommandError(.invalidMessagingTarget, detail: "\(clientID) is not a member of \(message.conversationID)")
        }
        try conversation.requireMember(caller, or: .invalidMessagingTarget)
        guard message.from == clientID else {
            throw CommandError(.messageOwnershipRequired, detail: "only \(message.from) may change message \(message.id)")
        }
        if caller.isClient { try checkAllowed(recall: change.isRecall, sentAt: message.timestamp) }

        if let content = change.content {
            guard content.byteCount <= context.settings.maxContentBytes else {
                throw CommandError(.frameTooLong, detail: "content is \(content.byteCount) bytes, at most \(context.settings.maxContentBytes) allowed")
            }
            message.content = content
            message.mentionAll = change.mentionAll
            message.mentionPids = change.mentionPids
        } else {
            message.content = .text(PatchNotices.recalledContent)
            message.mentionAll = false
            message.mentionPids = []
        }
        let decided = try await hooks.update(
            message, in: conversation.hookKind, recipients: conversation.recipients(of: message), recall: change.isRecall, sourceIP: caller.sourceIP
        )
        var changed = decided.message
        changed.patchTimestamp = context.clock.next()
        try await context.store.updateMessage(changed)
        context.logger.info("message changed", metadata: [
            "client": "\(clientID)", "message": "\(changed.id)", "recall": "\(change.isRecall)",
        ])

        let patch = PatchNotices.item(for: changed)
        let members = Set(decided.recipients + [clientID])
        for member in members {
            for target in context.presence.connections(of: member) where !(member == clientID && target.id == caller.connection?.id) {
                HeldNotices.send(PatchNotices.notice([patch], to: member), to: target)
            }
        }
        context.relay(PatchNotices.notice([patch], to: clientID), to: Array(members))
        if let rewrite = decided.patch, let connection = caller.connection {
            connection.outbox.send(PatchNotices.notice([PatchNotices.item(for: changed, code: rewrite.code, reason: rewrite.detail)], to: clientID))
        }
        return changed
    }

    private func checkAllowed(recall: Bool, sentAt timestamp: Int64) throws {
        let refusal: ErrorCode = recall ? .messageRecallDisabled : .messageEditDisabled
        guard recall ? context.settings.recallAllowed : context.settings.editingAllowed else {
            throw CommandError(refusal, detail: recall ? "recalling messages is turned off" : "editing messages is turned off")
        }
        if let window = context.settings.editWindow, context.clock.now() - timestamp > window * 1000 {
            throw CommandError(refusal, detail: "messages may be changed for \(window) seconds after sending")
        }
    }
}
