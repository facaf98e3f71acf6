import SwitchboardJSON

/// `_conversationAdd` and `_conversationRemove`: before members join or are removed. Not
/// fired for the initial members, nor for a member leaving by itself.
public struct ConversationMembersRequest: HookRequest, Equatable {
    public enum Change: Sendable, Equatable { case add, remove }

    public var point: HookPoint { change == .add ? .conversationAdd : .conversationRemove }

    public var change: Change
    public var initBy: String
    public var members: [String]
    public var convId: String

    public init(change: Change, initBy: String, members: [String], convId: String) {
        self.change = change
        self.initBy = initBy
        self.members = members
        self.convId = convId
    }

    public var params: JSONValue {
        .object(["initBy": .string(initBy), "members": .strings(members), "convId": .string(convId)])
    }

    public func applying(_ result: ConversationResult) -> ConversationMembersRequest { self }

    public func dispatch(to plugin: any SwitchboardPlugin) async throws -> ConversationResult {
        switch change {
        case .add: try await plugin.conversationAdd(self)
        case .remove: try await plugin.conversationRemove(self)
        }
    }
}
