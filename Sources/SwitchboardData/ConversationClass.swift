import SwitchboardJSON

/// `_Conversation` among an app's classes: read from the IM store (`ConversationObjects`)
/// wherever the other classes are kept, never written through LeanStorage's API, not walked
/// by scans. `LocalAppData` and `RemoteAppData` answer it alike.
public enum ConversationClass {
    public static let name = "_Conversation"

    public static let notScanned = StorageError.unsupported("scanning _Conversation; query it with skip and limit")

    /// Refuses a write to a class LeanStorage's API may not write: a name that is not one,
    /// or `_Conversation`.
    public static func checkWritable(_ className: String) throws(StorageError) {
        try ClassNames.validate(className: className)
        if className == name { throw .readOnlyClass(name, "conversations change through the IM API (/1.2/rtm/conversations)") }
    }

    /// A query's page of conversations, its `where` as given (subqueries answered already);
    /// with `count`, the matches among the first 1000 are counted. `keys` and `include` are
    /// the caller's.
    public static func find(_ query: ObjectQuery, in conversations: any ConversationObjects) async throws -> ObjectQuery.Result {
        guard query.count else {
            return .init(results: try await conversations.conversations(where: query.whereDocument, order: query.order, skip: query.skip, limit: query.limit))
        }
        let all = try await conversations.conversations(where: query.whereDocument, order: query.order, skip: 0, limit: ObjectQuery.maxLimit)
        return .init(results: Array(all.dropFirst(query.skip).prefix(query.limit)), count: all.count)
    }
}
