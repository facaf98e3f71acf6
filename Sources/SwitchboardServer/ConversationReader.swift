import SwitchboardCore
import SwitchboardData
import SwitchboardJS
import SwitchboardJSON

/// What hook scripts read while they run: `_Conversation`, from the core's store.
struct ConversationReader: ScriptConversations, ConversationObjects {
    let core: MessagingCore

    func conversations(where whereDocument: JSONValue, order: String?, skip: Int, limit: Int) async throws -> [JSONValue] {
        try await core.storedConversations.conversations(where: whereDocument, order: order, skip: skip, limit: limit)
    }
}
