import SwitchboardJSON

extension MessagingCore {
    /// LeanCloud's `_ConversationMemberInfo` rows of one conversation, as an SDK reads them
    /// over REST (`GET /1.1/classes/_ConversationMemberInfo?where={"cid":…}`): one per member
    /// with a role other than Member (the owner, the managers), filtered by `where`, which
    /// must name the conversation (`cid`). The client must be able to see the conversation.
    public func memberInfoObjects(where whereDocument: JSONValue, for clientID: String) async throws -> [JSONValue] {
        let filter = try DocumentFilter(whereDocument)
        guard let id = whereDocument["cid"]?.stringValue,
              let conversation = try await context.store.conversation(id: id),
              !conversation.isExpired(at: context.clock.now()),
              context.access.isVisible(conversation, to: clientID)
        else { return [] }
        return Self.memberInfoObjects(of: conversation).filter(filter.matches)
    }

    /// The `_ConversationMemberInfo` rows of a conversation: its owner (when a member) and
    /// managers.
    public static func memberInfoObjects(of conversation: Conversation) -> [JSONValue] {
        conversation.members.filter { conversation.role(of: $0) != .member }.map { member -> JSONValue in
            .object([
                "objectId": .string(Identifiers.memberInfoID(conversationID: conversation.id, clientID: member)),
                "cid": .string(conversation.id),
                "clientId": .string(member),
                "role": .string(conversation.role(of: member).rawValue),
            ])
        }
    }
}
