import SwitchboardWire

/// `direct`: a client sends a message (see `MessageSending`).
struct MessageCommands: Sendable {
    let sending: MessageSending

    /// The ack of a delivered message is written as it is stored, before the others' copies
    /// (see `MessageSending.send`); a will's or a repeated send's is the reply.
    func send(_ request: GenericCommand, from clientID: String, on connection: Connection) async throws -> GenericCommand? {
        let sent = try await sending.send(Self.outgoing(request), by: .client(clientID, on: connection)) { message in
            connection.outbox.send(Replies.ack(message, replyingTo: request))
        }
        return sent.outcome == .delivered ? nil : Replies.ack(sent.message, replyingTo: request)
    }

    /// The message a `direct` command asks to send.
    private static func outgoing(_ request: GenericCommand) -> OutgoingMessage {
        let direct = request.directMessage
        var outgoing = OutgoingMessage(conversationID: direct.cid, content: direct.hasBinaryMsg ? .binary(Array(direct.binaryMsg)) : .text(direct.msg))
        outgoing.mentionAll = direct.mentionAll
        outgoing.mentionPids = direct.mentionPids
        outgoing.wantsReceipt = direct.r
        outgoing.clientToken = direct.dt.isEmpty ? nil : direct.dt
        outgoing.transient = direct.transient
        outgoing.isWill = direct.will
        outgoing.pushData = direct.hasPushData ? direct.pushData : nil
        outgoing.priority = MessagePriority(wire: request.priority)
        return outgoing
    }
}
