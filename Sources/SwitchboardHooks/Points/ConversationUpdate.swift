import SwitchboardJSON

/// `_conversationUpdate`: before a name or attribute change, or a mute or unmute.
public struct ConversationUpdateRequest: HookRequest, Equatable {
    public enum Change: Sendable, Equatable {
        case attributes(JSONValue)
        case mute(Bool)
    }

    public var point: HookPoint { .conversationUpdate }

    public var initBy: String
    public var convId: String
    public var change: Change

    public init(initBy: String, convId: String, change: Change) {
        self.initBy = initBy
        self.convId = convId
        self.change = change
    }

    public var params: JSONValue {
        var object: [String: JSONValue] = ["initBy": .string(initBy), "convId": .string(convId)]
        switch change {
        case .attributes(let attr): object["attr"] = attr
        case .mute(let mute): object["mute"] = .bool(mute)
        }
        return .object(object)
    }

    /// A result may replace what changes, but only in kind: `attr` for an attribute change,
    /// `mute` for a mute.
    public func applying(_ result: ConversationResult) -> ConversationUpdateRequest {
        var next = self
        switch change {
        case .attributes:
            if let attr = result.attr { next.change = .attributes(attr) }
        case .mute:
            if let mute = result.mute { next.change = .mute(mute) }
        }
        return next
    }

    public func dispatch(to plugin: any SwitchboardPlugin) async throws -> ConversationResult {
        try await plugin.conversationUpdate(self)
    }
}
