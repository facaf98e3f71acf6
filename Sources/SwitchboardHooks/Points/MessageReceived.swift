import SwitchboardJSON

/// `_messageReceived`: a message has arrived and its recipients are known; nothing is
/// stored or delivered yet.
public struct MessageReceivedRequest: HookRequest, Equatable {
    public var point: HookPoint { .messageReceived }

    public var fromPeer: String
    public var convId: String
    public var toPeers: [String]
    public var transient: Bool
    /// The content is binary, and `content` is its Base64.
    public var bin: Bool
    public var content: String
    public var receipt: Bool
    public var timestamp: Int64
    public var system: Bool
    public var sourceIP: String

    /// Not a LeanCloud parameter: which kind of conversation, for built-in handlers and plugins.
    public var conversationKind: ConversationKind

    public init(
        fromPeer: String, convId: String, toPeers: [String], transient: Bool, bin: Bool, content: String,
        receipt: Bool, timestamp: Int64, system: Bool, sourceIP: String,
        conversationKind: ConversationKind = .group
    ) {
        self.fromPeer = fromPeer
        self.convId = convId
        self.toPeers = toPeers
        self.transient = transient
        self.bin = bin
        self.content = content
        self.receipt = receipt
        self.timestamp = timestamp
        self.system = system
        self.sourceIP = sourceIP
        self.conversationKind = conversationKind
    }

    public var params: JSONValue {
        .object([
            "fromPeer": .string(fromPeer), "convId": .string(convId), "toPeers": .strings(toPeers),
            "transient": .bool(transient), "bin": .bool(bin), "content": .string(content), "receipt": .bool(receipt),
            "timestamp": .int(timestamp), "system": .bool(system), "sourceIP": .string(sourceIP),
        ])
    }

    /// `params.jsonString` without the dictionary: the same text, keys in sorted order.
    public var paramsJSON: String {
        var writer = JSONObjectWriter(capacity: 160 + content.utf8.count)
        writer.add("bin", bin)
        writer.add("content", content)
        writer.add("convId", convId)
        writer.add("fromPeer", fromPeer)
        writer.add("receipt", receipt)
        writer.add("sourceIP", sourceIP)
        writer.add("system", system)
        writer.add("timestamp", timestamp)
        writer.add("toPeers", toPeers)
        writer.add("transient", transient)
        return writer.text()
    }

    public func applying(_ result: MessageResult) -> MessageReceivedRequest {
        var next = self
        if let content = result.content { next.content = content }
        if let bin = result.bin { next.bin = bin }
        // Recipients narrow, never widen: a made-up list cannot reach others or cost more.
        if let toPeers = result.toPeers { next.toPeers = toPeers.narrowing(self.toPeers) }
        return next
    }

    public func dispatch(to plugin: any SwitchboardPlugin) async throws -> MessageResult {
        try await plugin.messageReceived(self)
    }
}
