import SwitchboardJSON

/// `_conversationStart`: before a conversation is created.
public struct ConversationStartRequest: HookRequest, Equatable {
    public var point: HookPoint { .conversationStart }

    public var initBy: String
    public var members: [String]
    public var attr: JSONValue

    public init(initBy: String, members: [String], attr: JSONValue) {
        self.initBy = initBy
        self.members = members
        self.attr = attr
    }

    public var params: JSONValue {
        .object(["initBy": .string(initBy), "members": .strings(members), "attr": attr])
    }

    public func applying(_ result: ConversationResult) -> ConversationStartRequest { self }

    public func dispatch(to plugin: any SwitchboardPlugin) async throws -> ConversationResult {
        try await plugin.conversationStart(self)
    }
}
