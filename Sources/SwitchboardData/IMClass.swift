import SwitchboardJSON

/// One of the classes LeanCloud's IM kept among an app's LeanStorage classes
/// (`_Conversation`, `_ConversationMemberInfo`, `_Installation`), answered from Switchboard's
/// IM store (SwitchboardCore's `StoredConversations`, `StoredMemberInfos`,
/// `StoredInstallations`): read through LeanStorage's API, queried and walked like any class,
/// changed only through the IM's own API. `IMClasses` holds them for `LocalAppData` and
/// `RemoteAppData`.
public protocol IMClass: Sendable {
    var name: String { get }
    /// Objects matching a LeanCloud `where` (its subqueries answered already), in `order`
    /// (LeanCloud's sort string; the class's own default when nil), from `skip`, at most
    /// `limit`. A `where` it cannot run is a `StorageError` (102).
    func objects(where whereDocument: JSONValue, order: String?, skip: Int, limit: Int) async throws -> [JSONValue]
    /// A page of the class in object id order (byte by byte), from just past `objectID`, for
    /// walks (`/1.1/scan/classes`): read from the store a page at a time, at most `limit`
    /// objects.
    func page(after objectID: String?, limit: Int) async throws -> IMClassPage
}

/// What one read of an `IMClass` in object id order gave.
public struct IMClassPage: Sendable, Equatable {
    /// The objects the class shows among the rows read (an expired conversation is read,
    /// not shown), in object id order.
    public var objects: [JSONValue]
    /// The object id of the last row read, shown or not, to read on from; nil when no row
    /// is left past those read.
    public var next: String?

    public init(objects: [JSONValue], next: String?) {
        self.objects = objects
        self.next = next
    }
}
