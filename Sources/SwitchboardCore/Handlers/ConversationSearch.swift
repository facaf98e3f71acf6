import Foundation
import SwitchboardJSON
import SwitchboardWire

/// What `conv/query` and hook scripts' `_Conversation` queries share: which stored
/// conversations a `where` can match, and LeanCloud's sort strings.
enum ConversationSearch {
    /// Queries that name neither ids nor members read at most this many conversations.
    static let scanLimit = 10_000
    static let maxSortKeys = 8

    /// The conversations a query can match, read by id or member when the query names them.
    static func candidates(for whereDocument: JSONValue, ids named: [String], in store: any ConversationStore) async throws -> [Conversation] {
        let ids = named + values(of: whereDocument["objectId"])
        if !ids.isEmpty { return try await store.conversations(ids: ids) }
        let members = values(of: whereDocument["m"])
        if !members.isEmpty { return try await store.conversations(withAnyMember: members) }
        return try await store.recentConversations(limit: scanLimit)
    }

    /// The strings a condition pins a field to: `"x"`, `{"$eq": "x"}`, `{"$in": [...]}`, `{"$all": [...]}`.
    private static func values(of condition: JSONValue?) -> [String] {
        guard let condition else { return [] }
        if let value = condition.stringValue { return [value] }
        for op in ["$eq", "$in", "$all"] {
            if let value = condition[op]?.stringValue { return [value] }
            if let values = condition[op]?.arrayValue { return values.compactMap(\.stringValue) }
        }
        return []
    }

    /// A comparator for a LeanCloud sort string: comma-separated keys, `-` for descending.
    static func ordering(_ sort: String) throws -> (JSONValue, JSONValue) -> Bool {
        let ordering = DocumentOrdering(sort)
        guard ordering.keys.count <= maxSortKeys else {
            throw CommandError(.conversationAPIFailed, detail: "sort by at most \(maxSortKeys) keys")
        }
        return ordering.inOrder
    }
}
