import SwitchboardJSON

extension HookPoint {
    /// Reads a handler's answer as this hook point's result type; throws if it has the
    /// wrong shape. For tools that run a hook outside the pipeline.
    public func checkResult(_ json: JSONValue) throws(HookResultError) {
        switch self {
        case .messageReceived, .messageUpdate: _ = try MessageResult(json: json)
        case .receiversOffline: _ = try ReceiversOfflineResult(json: json)
        case .conversationStart, .conversationAdd, .conversationRemove, .conversationUpdate: _ = try ConversationResult(json: json)
        case .messageSent, .conversationStarted, .conversationAdded, .conversationRemoved, .clientOnline, .clientOffline: break
        }
    }
}
