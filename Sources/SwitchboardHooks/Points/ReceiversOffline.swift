import SwitchboardJSON

/// `_receiversOffline`: after delivery some recipients were offline; decides the push.
public struct ReceiversOfflineRequest: HookRequest, Equatable {
    public var point: HookPoint { .receiversOffline }

    public var fromPeer: String
    public var convId: String
    public var offlinePeers: [String]
    public var content: String
    public var timestamp: Int64
    public var mentionAll: Bool
    /// Offline members that were @-mentioned.
    public var mentionOfflinePeers: [String]
    /// Set by a handler: the payload to push (an object, or a JSON string of one).
    public var pushMessage: JSONValue?
    public var force: Bool

    public init(
        fromPeer: String, convId: String, offlinePeers: [String], content: String, timestamp: Int64,
        mentionAll: Bool, mentionOfflinePeers: [String]
    ) {
        self.fromPeer = fromPeer
        self.convId = convId
        self.offlinePeers = offlinePeers
        self.content = content
        self.timestamp = timestamp
        self.mentionAll = mentionAll
        self.mentionOfflinePeers = mentionOfflinePeers
        self.force = false
    }

    public var params: JSONValue {
        .object([
            "fromPeer": .string(fromPeer), "convId": .string(convId), "offlinePeers": .strings(offlinePeers),
            "content": .string(content), "timestamp": .int(timestamp), "mentionAll": .bool(mentionAll),
            "mentionOfflinePeers": .strings(mentionOfflinePeers),
        ])
    }

    public func applying(_ result: ReceiversOfflineResult) -> ReceiversOfflineRequest {
        var next = self
        if let peers = result.offlinePeers { next.offlinePeers = peers.narrowing(self.offlinePeers) }
        if let push = result.pushMessage { next.pushMessage = push }
        if result.force { next.force = true }
        return next
    }

    public func dispatch(to plugin: any SwitchboardPlugin) async throws -> ReceiversOfflineResult {
        try await plugin.receiversOffline(self)
    }
}

/// The answer to `_receiversOffline`.
public struct ReceiversOfflineResult: HookResult, Equatable {
    /// No push at all.
    public var skip: Bool
    /// Pushes only to these.
    public var offlinePeers: [String]?
    public var pushMessage: JSONValue?
    /// Push even to members who muted the conversation.
    public var force: Bool

    public init(skip: Bool = false, offlinePeers: [String]? = nil, pushMessage: JSONValue? = nil, force: Bool = false) {
        self.skip = skip
        self.offlinePeers = offlinePeers
        self.pushMessage = pushMessage
        self.force = force
    }

    public static let passThrough = ReceiversOfflineResult()

    /// Failing closed here means no push: the message itself is already delivered.
    public static func failedClosed(detail: String) -> ReceiversOfflineResult {
        ReceiversOfflineResult(skip: true)
    }

    /// The largest push payload, as JSON: what APNs and FCM take.
    public static let maxPushMessageBytes = 4096

    public init(json: JSONValue) throws(HookResultError) {
        let object = try ResultField.object(json)
        var push = object["pushMessage"]
        if let text = push?.stringValue {
            guard let parsed = try? JSONValue(parsing: text), parsed.objectValue != nil else {
                throw HookResultError("pushMessage must be an object or a JSON string of one")
            }
            push = parsed
        } else if let given = push, given != .null, given.objectValue == nil {
            throw HookResultError("pushMessage must be an object or a JSON string of one")
        }
        if let push, push != .null, push.jsonString.utf8.count > Self.maxPushMessageBytes {
            throw HookResultError("pushMessage is larger than \(Self.maxPushMessageBytes) bytes, the most APNs and FCM take")
        }
        self.init(
            skip: ResultField.truthy(object["skip"]),
            offlinePeers: try ResultField.strings(object["offlinePeers"], "offlinePeers"),
            pushMessage: push == .null ? nil : push,
            force: ResultField.truthy(object["force"])
        )
    }

    public var stopsChain: Bool { skip }
    public var code: Int32? { nil }
    public var detail: String? { nil }
}
