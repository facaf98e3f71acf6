import SwitchboardHooks

extension Conversation {
    /// The kind handlers are told: chat rooms, two-member conversations, and the rest.
    var hookKind: ConversationKind {
        if isTransient { return .chatRoom }
        return members.count <= 2 ? .oneToOne : .group
    }
}
