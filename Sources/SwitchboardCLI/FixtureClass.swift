import SwitchboardData
import SwitchboardJSON

/// An IM class's rows from a `hooks test --data` file (`_Conversation`,
/// `_ConversationMemberInfo`, `_Installation`), read as the server reads its IM store: a
/// `where`, LeanCloud's sort string (for conversations newest update first by default, for
/// the others oldest first), skip and limit; walks in object id order.
struct FixtureClass: IMClass {
    let name: String
    let rows: [JSONValue]

    /// `rows` in object id order.
    init(name: String, rows: [JSONValue]) {
        self.name = name
        self.rows = rows.sorted { Self.objectID($0) < Self.objectID($1) }
    }

    func objects(where whereDocument: JSONValue, order: String?, skip: Int, limit: Int) async throws -> [JSONValue] {
        let defaultOrder = name == ConversationClass.name ? "-updatedAt" : "createdAt"
        return try IMClasses.page(of: rows, where: whereDocument, order: order ?? defaultOrder, skip: skip, limit: limit)
    }

    func page(after objectID: String?, limit: Int) async throws -> IMClassPage {
        let past = rows.drop { Self.objectID($0) <= objectID ?? "" }
        let page = past.prefix(max(limit, 1))
        return IMClassPage(objects: Array(page), next: past.count > page.count ? page.last.map(Self.objectID) : nil)
    }

    private static func objectID(_ row: JSONValue) -> String {
        row["objectId"]?.stringValue ?? ""
    }
}
