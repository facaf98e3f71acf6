import SwitchboardData
import SwitchboardJSON

/// `_Conversation` rows of a `hooks test --data` file, queried as the server queries its
/// IM store: a `where`, LeanCloud's sort string (newest update first by default), skip and limit.
struct FixtureConversations: ConversationObjects {
    let rows: [JSONValue]

    func conversations(where whereDocument: JSONValue, order: String?, skip: Int, limit: Int) async throws -> [JSONValue] {
        let filter: DocumentFilter
        do {
            filter = try DocumentFilter(whereDocument)
        } catch {
            throw StorageError.invalidQuery(error.description)
        }
        let ordering = DocumentOrdering(order ?? "-updatedAt")
        return rows.filter(filter.matches).sorted(by: ordering.inOrder).dropFirst(max(skip, 0)).prefix(max(limit, 0)).map { $0 }
    }
}
