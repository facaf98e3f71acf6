import SwitchboardJSON

/// An app's LeanStorage: what hook scripts reach through `AV.Object` and `AV.Query`, and
/// what `/1.1/classes` serves. Objects go in and come out as LeanStorage's REST API shows
/// them (`objectId`, ISO `createdAt`/`updatedAt`, `{"__type": ...}` values); refusals are
/// `StorageError`s with LeanCloud's codes. `LocalAppData` keeps the data in Switchboard's
/// database; `RemoteAppData` forwards to a LeanStorage-compatible server.
public protocol AppData: Sendable {
    /// Creates an object from a body of fields and `__op` operations; answers
    /// `{objectId, createdAt}`, or the whole object with `fetchWhenSave`.
    func create(in className: String, body: [String: JSONValue], fetchWhenSave: Bool) async throws -> JSONValue

    /// The object, with `include`d pointers expanded and only `keys` if any; nil when
    /// there is none.
    func object(in className: String, id: String, include: [String], keys: [String]) async throws -> JSONValue?

    /// Applies a body of fields and `__op` operations to an object, if it matches
    /// `condition` (else 305); answers `{objectId, updatedAt}`, plus the changed fields with
    /// `fetchWhenSave`. An object that does not exist is 101.
    func update(in className: String, id: String, body: [String: JSONValue], condition: JSONValue?, fetchWhenSave: Bool) async throws -> JSONValue

    /// Deletes an object if it matches `condition` (else 305); one that does not exist is
    /// already deleted.
    func delete(in className: String, id: String, condition: JSONValue?) async throws

    func find(_ query: ObjectQuery) async throws -> ObjectQuery.Result

    /// A page of a walk through a class (`/1.1/scan/classes`): matches of `where` in
    /// `scanKey` order (`objectId`, `createdAt` or `updatedAt`, `-` for descending), from
    /// `cursor`; the answer's cursor is nil at the end.
    func scan(in className: String, where whereDocument: JSONValue, scanKey: String?, cursor: String?, limit: Int) async throws -> (results: [JSONValue], cursor: String?)

    /// The app's classes (`GET /1.1/schemas`), in name order.
    func classNames() async throws -> [String]
}
