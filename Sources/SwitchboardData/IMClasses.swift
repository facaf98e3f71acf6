import SwitchboardJSON

/// The IM classes an app's data answers from the IM store rather than keeping them itself,
/// by name: queries, gets and scans read them; LeanStorage's writes to them are refused
/// (119), since they change through the IM API. `LocalAppData` answers all three;
/// `RemoteAppData` `_Conversation` alone (the other LeanStorage server keeps its own
/// `_Installation` and `_ConversationMemberInfo`).
public struct IMClasses: Sendable {
    public static let memberInfo = "_ConversationMemberInfo"
    public static let installation = "_Installation"

    /// Each IM class, and where its objects change instead of through LeanStorage's API.
    private static let changedThrough = [
        ConversationClass.name: "conversations change through the IM API (/1.2/rtm/conversations)",
        memberInfo: "roles change through the IM API (/1.2/rtm/conversations/{conv_id}/member-infos)",
        installation: "devices are saved through /1.1/installations",
    ]
    /// The names of the classes LeanCloud's IM kept.
    public static let names = Set(changedThrough.keys)

    /// Rows an IM class reads for one query, at most, as app data's queries: past this a
    /// query is refused (124).
    public static let maxRowsRead = LocalAppData.maxDocumentsRead

    private let byName: [String: any IMClass]

    public init(_ classes: [any IMClass] = []) {
        byName = Dictionary(classes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public subscript(name: String) -> (any IMClass)? { byName[name] }

    /// Refuses a write to a class LeanStorage's API may not write: a name that is not one,
    /// or one of the IM classes `refused` names (all of them unless the caller keeps some
    /// elsewhere).
    public static func checkWritable(_ className: String, refused: Set<String> = names) throws(StorageError) {
        try ClassNames.validate(className: className)
        if refused.contains(className), let place = changedThrough[className] { throw .readOnlyClass(className, place) }
    }

    /// A read of an IM class where no IM store answers it (a store of app data alone).
    static func unavailable(_ className: String) -> StorageError {
        StorageError(code: 1, "\(className) is not available here: no IM store")
    }

    /// A query's page of an IM class, its `where` as given (subqueries answered already);
    /// with `count`, the matches among the first 1000 are counted. `keys` and `include` are
    /// the caller's.
    public static func find(_ query: ObjectQuery, in imClass: any IMClass) async throws -> ObjectQuery.Result {
        guard query.count else {
            return .init(results: try await imClass.objects(where: query.whereDocument, order: query.order, skip: query.skip, limit: query.limit))
        }
        let all = try await imClass.objects(where: query.whereDocument, order: query.order, skip: 0, limit: ObjectQuery.maxLimit)
        return .init(results: Array(all.dropFirst(query.skip).prefix(query.limit)), count: all.count)
    }

    /// A query's page of `rows` read whole: those matching `where`, in `order` (ties by
    /// object id), from `skip`, at most `limit` (1000 at most).
    public static func page(of rows: [JSONValue], where whereDocument: JSONValue, order: String, skip: Int, limit: Int) throws(StorageError) -> [JSONValue] {
        let filter = try DocumentFilter.storage(whereDocument)
        let ordering = DocumentOrdering(order)
        let objectID = { (row: JSONValue) in row["objectId"]?.stringValue ?? "" }
        return rows.filter(filter.matches)
            .sorted { a, b in ordering.inOrder(a, b) || (!ordering.inOrder(b, a) && objectID(a) < objectID(b)) }
            .dropFirst(max(skip, 0)).prefix(min(max(limit, 0), ObjectQuery.maxLimit)).map { $0 }
    }

    /// A page of a walk through an IM class, in object id order (the one order its store
    /// walks), from `cursor` or from where `where` lets it start.
    public static func scan(_ imClass: any IMClass, where whereDocument: JSONValue, scanKey: String?, cursor: String?, limit: Int) async throws -> (results: [JSONValue], cursor: String?) {
        let order = DocumentOrder(.objectID)
        guard try ScanCursor.order(scanKey) == order else { throw StorageError.unsupported("scan_key \(scanKey ?? ""): \(imClass.name) is walked by objectId") }
        let limit = ScanWalk.limit(limit)
        let filter = try DocumentFilter.storage(whereDocument, maxTerms: LocalAppData.maxTerms)
        let start = [try cursor.map { try ScanCursor(text: $0, order: order).position.objectID }, ScanWalk.objectIDFloor(whereDocument)].compactMap { $0 }.max()
        // A `where` may match few: the class is read in large pages then (a page of roles reads
        // every conversation with managers), and the walk stops at the `limit`th match.
        let pageSize = whereDocument.objectValue?.isEmpty == true ? limit : ObjectQuery.maxLimit
        let page = try await ScanWalk.run(from: start, limit: limit, pageSize: pageSize, filter: filter) { after in
            let page = try await imClass.page(after: after, limit: pageSize)
            return .init(objects: page.objects.map { ($0, $0["objectId"]?.stringValue ?? "") }, next: page.next)
        }
        return (page.results, page.next.map { ScanCursor(order: order, position: .init(time: 0, objectID: $0)).text })
    }
}
