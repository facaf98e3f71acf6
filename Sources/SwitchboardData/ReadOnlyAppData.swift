import SwitchboardJSON

/// App data that answers reads and refuses writes, saying why: `hooks test` reading the
/// server's own store must not change it.
public struct ReadOnlyAppData: AppData {
    let base: any AppData
    let reason: String

    public init(_ base: any AppData, reason: String) {
        self.base = base
        self.reason = reason
    }

    private func refusal(_ what: String, _ className: String) -> StorageError {
        StorageError(code: 119, "\(what) \(className) refused: \(reason)", status: 403)
    }

    public func create(in className: String, body: [String: JSONValue], fetchWhenSave: Bool) async throws -> JSONValue {
        throw refusal("Creating an object of", className)
    }

    public func object(in className: String, id: String, include: [String], keys: [String]) async throws -> JSONValue? {
        try await base.object(in: className, id: id, include: include, keys: keys)
    }

    public func update(in className: String, id: String, body: [String: JSONValue], condition: JSONValue?, fetchWhenSave: Bool) async throws -> JSONValue {
        throw refusal("Updating an object of", className)
    }

    public func delete(in className: String, id: String, condition: JSONValue?) async throws {
        throw refusal("Deleting an object of", className)
    }

    public func find(_ query: ObjectQuery) async throws -> ObjectQuery.Result {
        try await base.find(query)
    }

    public func scan(in className: String, where whereDocument: JSONValue, scanKey: String?, cursor: String?, limit: Int) async throws -> (results: [JSONValue], cursor: String?) {
        try await base.scan(in: className, where: whereDocument, scanKey: scanKey, cursor: cursor, limit: limit)
    }

    public func classNames() async throws -> [String] {
        try await base.classNames()
    }
}
