extension GenericCommand {
    /// An `error` command: the reply to a request that failed, or a notice on its own.
    public static func error(
        _ code: ErrorCode, detail: String? = nil, appCode: Int32? = nil, appMessage: String? = nil, replyingTo request: GenericCommand? = nil
    ) -> GenericCommand {
        var command = GenericCommand()
        command.cmd = .error
        command.service = RealtimeService.instantMessaging
        if let request, request.hasI { command.i = request.i }
        if let request, request.hasPeerID { command.peerID = request.peerID }
        var error = ErrorCommand()
        error.code = code.rawValue
        error.reason = code.reason
        if let detail { error.detail = detail }
        if let appCode { error.appCode = appCode }
        if let appMessage { error.appMsg = appMessage }
        command.errorMessage = error
        return command
    }
}
