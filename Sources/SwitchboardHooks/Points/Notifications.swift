import SwitchboardJSON

/// The answer to a hook that only observes: whatever it returns is ignored.
public struct IgnoredResult: HookResult, Equatable {
    public init() {}
    public static let passThrough = IgnoredResult()
    public static func failedClosed(detail: String) -> IgnoredResult { IgnoredResult() }
    public init(json: JSONValue) throws(HookResultError) {}
    public var stopsChain: Bool { false }
    public var code: Int32? { nil }
    public var detail: String? { nil }
}

/// A hook point that observes without deciding; its handlers run after the fact.
public protocol HookNotification: HookRequest where Result == IgnoredResult {}

extension HookNotification {
    public func applying(_ result: IgnoredResult) -> Self { self }
}

/// `_messageSent`: after delivery.
public struct MessageSentNotification: HookNotification, Equatable {
    public var point: HookPoint { .messageSent }

    public var fromPeer: String
    public var convId: String
    public var msgId: String
    public var onlinePeers: [String]
    public var offlinePeers: [String]
    public var transient: Bool
    public var system: Bool
    public var bin: Bool
    public var content: String
    public var receipt: Bool
    public var timestamp: Int64
    public var sourceIP: String

    public init(
        fromPeer: String, convId: String, msgId: String, onlinePeers: [String], offlinePeers: [String], transient: Bool,
        system: Bool, bin: Bool, content: String, receipt: Bool, timestamp: Int64, sourceIP: String
    ) {
        self.fromPeer = fromPeer
        self.convId = convId
        self.msgId = msgId
        self.onlinePeers = onlinePeers
        self.offlinePeers = offlinePeers
        self.transient = transient
        self.system = system
        self.bin = bin
        self.content = content
        self.receipt = receipt
        self.timestamp = timestamp
        self.sourceIP = sourceIP
    }

    public var params: JSONValue {
        .object([
            "fromPeer": .string(fromPeer), "convId": .string(convId), "msgId": .string(msgId),
            "onlinePeers": .strings(onlinePeers), "offlinePeers": .strings(offlinePeers), "transient": .bool(transient),
            "system": .bool(system), "bin": .bool(bin), "content": .string(content), "receipt": .bool(receipt),
            "timestamp": .int(timestamp), "sourceIP": .string(sourceIP),
        ])
    }

    public func dispatch(to plugin: any SwitchboardPlugin) async throws -> IgnoredResult {
        try await plugin.messageSent(self)
        return .passThrough
    }
}

/// `_conversationStarted`: a conversation was created.
public struct ConversationStartedNotification: HookNotification, Equatable {
    public var point: HookPoint { .conversationStarted }
    public var convId: String

    public init(convId: String) { self.convId = convId }

    public var params: JSONValue { .object(["convId": .string(convId)]) }

    public func dispatch(to plugin: any SwitchboardPlugin) async throws -> IgnoredResult {
        try await plugin.conversationStarted(self)
        return .passThrough
    }
}

/// `_conversationAdded` / `_conversationRemoved`: members joined or were removed.
public struct ConversationMembersChangedNotification: HookNotification, Equatable {
    public var change: ConversationMembersRequest.Change
    public var point: HookPoint { change == .add ? .conversationAdded : .conversationRemoved }
    public var initBy: String
    public var convId: String
    public var members: [String]

    public init(change: ConversationMembersRequest.Change, initBy: String, convId: String, members: [String]) {
        self.change = change
        self.initBy = initBy
        self.convId = convId
        self.members = members
    }

    public var params: JSONValue {
        .object(["initBy": .string(initBy), "convId": .string(convId), "members": .strings(members)])
    }

    public func dispatch(to plugin: any SwitchboardPlugin) async throws -> IgnoredResult {
        switch change {
        case .add: try await plugin.conversationAdded(self)
        case .remove: try await plugin.conversationRemoved(self)
        }
        return .passThrough
    }
}

/// `_clientOnline`: a client opened a session.
public struct ClientOnlineNotification: HookNotification, Equatable {
    public var point: HookPoint { .clientOnline }
    public var peerId: String
    public var sourceIP: String
    public var tag: String
    /// 1 when the SDK reconnected by itself.
    public var reconnect: Int

    public init(peerId: String, sourceIP: String, tag: String, reconnect: Int) {
        self.peerId = peerId
        self.sourceIP = sourceIP
        self.tag = tag
        self.reconnect = reconnect
    }

    public var params: JSONValue {
        .object(["peerId": .string(peerId), "sourceIP": .string(sourceIP), "tag": .string(tag), "reconnect": .int(Int64(reconnect))])
    }

    public func dispatch(to plugin: any SwitchboardPlugin) async throws -> IgnoredResult {
        try await plugin.clientOnline(self)
        return .passThrough
    }
}

/// `_clientOffline`: a client's session ended.
public struct ClientOfflineNotification: HookNotification, Equatable {
    /// LeanCloud's `closeCode`s.
    public enum CloseCode: Int, Sendable {
        case loggedOut = 1
        case connectionLost = 2
        case kickedByTagConflict = 3
        case kickedByAPI = 4
    }

    public var point: HookPoint { .clientOffline }
    public var peerId: String
    public var closeCode: CloseCode
    public var closeMsg: String
    public var sourceIP: String
    public var tag: String
    public var errorCode: Int32?
    public var errorMsg: String?

    public init(peerId: String, closeCode: CloseCode, closeMsg: String, sourceIP: String, tag: String, errorCode: Int32? = nil, errorMsg: String? = nil) {
        self.peerId = peerId
        self.closeCode = closeCode
        self.closeMsg = closeMsg
        self.sourceIP = sourceIP
        self.tag = tag
        self.errorCode = errorCode
        self.errorMsg = errorMsg
    }

    public var params: JSONValue {
        var object: [String: JSONValue] = [
            "peerId": .string(peerId), "closeCode": .int(Int64(closeCode.rawValue)), "closeMsg": .string(closeMsg),
            "sourceIP": .string(sourceIP), "tag": .string(tag),
        ]
        if let errorCode { object["errorCode"] = .int(Int64(errorCode)) }
        if let errorMsg { object["errorMsg"] = .string(errorMsg) }
        return .object(object)
    }

    public func dispatch(to plugin: any SwitchboardPlugin) async throws -> IgnoredResult {
        try await plugin.clientOffline(self)
        return .passThrough
    }
}
