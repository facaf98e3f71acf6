import SwitchboardWire

/// How conversation changes are told: a `conv` notice naming the conversation and who
/// changed it, to the clients acted on and, naming them, to the other members.
extension ConversationOperations {
    /// A `conv` notice of `op` about `conversationID`, initiated by `clientID`.
    static func notice(_ op: OpType, in conversationID: String, by clientID: String) -> GenericCommand {
        var notice = Replies.notification(.conv, op: op, to: clientID)
        notice.convMessage.cid = conversationID
        notice.convMessage.initBy = clientID
        return notice
    }

    /// `own` to the clients acted on; `others`, naming them, to `audience`. In chat rooms,
    /// which are large, only the clients acted on hear.
    func announce(_ targets: [String], of conversation: Conversation, by clientID: String, own: OpType, others: OpType, to audience: [String]) async {
        await notifier.notify(targets, Self.notice(own, in: conversation.id, by: clientID), permanent: !conversation.isTransient)
        guard !conversation.isTransient else { return }
        var told = Self.notice(others, in: conversation.id, by: clientID)
        told.convMessage.m = targets
        await notifier.notify(audience, told, permanent: true)
    }

    /// `joined`/`left` to the members who came or went, `members_joined`/`members_left` to
    /// the others.
    func announceMembership(of conversation: Conversation, changed: [String], by clientID: String, joined: Bool) async {
        await announce(
            changed, of: conversation, by: clientID, own: joined ? .joined : .left, others: joined ? .membersJoined : .membersLeft,
            to: conversation.members.filter { !changed.contains($0) }
        )
    }
}
