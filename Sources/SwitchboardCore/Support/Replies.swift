import SwitchboardWire

/// Shapes of the commands the server sends back.
enum Replies {
    /// A reply to `request`: same command and serial `i`, the given operation.
    static func reply(to request: GenericCommand, op: OpType? = nil) -> GenericCommand {
        var reply = GenericCommand()
        reply.cmd = request.cmd
        reply.service = RealtimeService.instantMessaging
        if let op { reply.op = op }
        if request.hasI { reply.i = request.i }
        if request.hasPeerID { reply.peerID = request.peerID }
        return reply
    }

    /// A server-initiated notification (no `i`) addressed to `clientID`.
    static func notification(_ cmd: CommandType, op: OpType? = nil, to clientID: String) -> GenericCommand {
        var command = GenericCommand()
        command.cmd = cmd
        command.service = RealtimeService.instantMessaging
        if let op { command.op = op }
        command.peerID = clientID
        return command
    }

    /// The `error` command LeanCloud answers a failed request with.
    static func error(_ failure: CommandError, replyingTo request: GenericCommand?) -> GenericCommand {
        .error(failure.code, detail: failure.detail, appCode: failure.appCode, appMessage: failure.appMessage, replyingTo: request)
    }

    /// A send accepted: the message's id and server timestamp.
    static func ack(_ message: Message, replyingTo request: GenericCommand) -> GenericCommand {
        var reply = reply(to: request)
        reply.cmd = .ack
        reply.ackMessage.uid = message.id
        reply.ackMessage.t = message.timestamp
        return reply
    }

    /// A failed send: an `ack` carrying the error, as the SDKs expect for `direct`.
    static func failedAck(_ failure: CommandError, replyingTo request: GenericCommand) -> GenericCommand {
        var command = reply(to: request)
        command.cmd = .ack
        var ack = AckCommand()
        ack.code = failure.code.rawValue
        // LeanCloud sends 4323 bare; the SDK then names it and gives its own message.
        if failure.code != .temporaryConversationExpired { ack.reason = failure.code.reason }
        if let appCode = failure.appCode { ack.appCode = appCode }
        if let appMessage = failure.appMessage { ack.appMsg = appMessage }
        command.ackMessage = ack
        return command
    }
}
