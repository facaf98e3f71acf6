import SwitchboardData
import SwitchboardJSON

/// `_Conversation` as LeanStorage showed it (`new AV.Query('_Conversation')`,
/// `/1.1/classes/_Conversation`), read from the IM store: LeanCloud's field names,
/// read-only, with the app's rights (no visibility rules). Queries leave temporary
/// conversations out, as LeanCloud kept them elsewhere; walks (`/1.1/scan/classes`, what an
/// export reads) bring those still alive too, with `temp` and `ttl`. Expired ones are never
/// shown. A query it cannot run is a `StorageError` (102).
public struct StoredConversations: IMClass {
    let store: any ConversationStore
    let clock: any WallClock

    public init(store: any ConversationStore, clock: any WallClock = SystemWallClock()) {
        self.store = store
        self.clock = clock
    }

    public var name: String { ConversationClass.name }

    public func objects(where whereDocument: JSONValue, order: String?, skip: Int, limit: Int) async throws -> [JSONValue] {
        do {
            let filter = try DocumentFilter(whereDocument)
            let now = clock.now()
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

    public func page(after objectID: String?, limit: Int) async throws -> IMClassPage {
        let read = try await store.conversations(after: objectID, limit: limit)
        let now = clock.now()
        return IMClassPage(
            objects: read.filter { !$0.isExpired(at: now) }.map(ConversationDocument.storageObject),
            next: read.count < limit ? nil : read.last?.id
        )
    }
}
