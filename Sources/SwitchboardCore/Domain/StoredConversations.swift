import SwitchboardData
import SwitchboardJSON

/// `_Conversation` as LeanStorage showed it (`new AV.Query('_Conversation')`,
/// `/1.1/classes/_Conversation`), read from the IM store: LeanCloud's field names,
/// read-only, with the app's rights (no visibility rules), temporary conversations left
/// out as LeanCloud kept them elsewhere. A query it cannot run is a `StorageError` (102).
public struct StoredConversations: ConversationObjects {
    let store: any MessageStore

    public init(store: any MessageStore) {
        self.store = store
    }

    public func conversations(where whereDocument: JSONValue, order: String?, skip: Int, limit: Int) async throws -> [JSONValue] {
        do {
            let filter = try DocumentFilter(whereDocument)
            let now = ServerClock.wallMilliseconds()
            let conversations = try await ConversationSearch.candidates(for: whereDocument, ids: [], in: store)
                .filter { !$0.isTemporary && !$0.isExpired(at: now) }
            let sort = try ConversationSearch.ordering(order ?? "-updatedAt")
            return conversations.map(ConversationDocument.storageObject).filter(filter.matches).sorted(by: sort)
                .dropFirst(max(skip, 0)).prefix(min(max(limit, 0), 1000)).map { $0 }
        } catch let unsupported as DocumentFilter.Unsupported {
            throw StorageError.invalidQuery(unsupported.description)
        } catch let refusal as CommandError {
            throw StorageError.invalidQuery(refusal.detail ?? refusal.code.reason)
        }
    }
}
