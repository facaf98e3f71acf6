import SwitchboardJSON

/// `_messageUpdate`: a sender edits or recalls a message, before the stored one changes.
public struct MessageUpdateRequest: HookRequest, Equatable {
    public var point: HookPoint { .messageUpdate }

    public var fromPeer: String
    public var convId: String
    public var toPeers: [String]
    public var bin: Bool
    public var content: String
    public var timestamp: Int64
    public var msgId: String
    public var sourceIP: String
    public var recall: Bool
    public var system: Bool

    /// Not a LeanCloud parameter: which kind of conversation, for built-in handlers and plugins.
    public var conversationKind: ConversationKind

    public init(
        fromPeer: String, convId: String, toPeers: [String], bin: Bool, content: String, timestamp: Int64,
        msgId: String, sourceIP: String, recall: Bool, system: Bool,
        conversationKind: ConversationKind = .group
    ) {
        self.fromPeer = fromPeer
        self.convId = convId
        self.toPeers = toPeers
        self.bin = bin
        self.content = content
        self.timestamp = timestamp
        self.msgId = msgId
        self.sourceIP = sourceIP
        self.recall = recall
        self.system = system
        self.conversationKind = conversationKind
    }

    public var params: JSONValue {
        .object([
            "fromPeer": .string(fromPeer), "convId": .string(convId), "toPeers": .strings(toPeers), "bin": .bool(bin),
            "content": .string(content), "timestamp": .int(timestamp), "msgId": .string(msgId),
            "sourceIP": .string(sourceIP), "recall": .bool(recall), "system": .bool(system),
        ])
    }

    public func applying(_ result: MessageResult) -> MessageUpdateRequest {
        var next = self
        if let content = result.content { next.content = content }
        if let bin = result.bin { next.bin = bin }
        if let toPeers = result.toPeers { next.toPeers = toPeers.narrowing(self.toPeers) }
        return next
    }

    public func dispatch(to plugin: any SwitchboardPlugin) async throws -> MessageResult {
        try await plugin.messageUpdate(self)
    }
}
