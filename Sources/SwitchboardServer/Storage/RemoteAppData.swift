import SwitchboardData
import SwitchboardJSON

/// The app's LeanStorage on another server (`hooks.storage`), for hook scripts: each call is
/// one REST call to it, as LeanCloud's SDKs made them. `_Conversation` is Switchboard's
/// own: read (queried and walked) from the IM store as `LocalAppData` reads it, never sent
/// to that server, and written only through the IM API. `_Installation` and
/// `_ConversationMemberInfo` are that server's, as its app's other classes. Names and ids
/// are checked here first, so a script sees the same refusals as with the local store.
public struct RemoteAppData: AppData {
    let client: LeanStorageClient
    let conversations: any IMClass

    public init(storage: RemoteStorage, conversations: any IMClass) {
        client = LeanStorageClient(storage: storage)
        self.conversations = conversations
    }

    private static func checkWritable(_ className: String) throws(StorageError) {
        try IMClasses.checkWritable(className, refused: [ConversationClass.name])
    }

    public func create(in className: String, body: [String: JSONValue], fetchWhenSave: Bool) async throws -> JSONValue {
        try Self.checkWritable(className)
        let answer = try await client.call(.POST, ["classes", className], query: Self.flag(fetchWhenSave), body: .object(body))
        guard answer["objectId"]?.stringValue != nil else { throw client.unexpected("a create in \(className)", answer) }
        return .object(answer)
    }

    public func object(in className: String, id: String, include: [String], keys: [String]) async throws -> JSONValue? {
        try ClassNames.validate(className: className)
        try ClassNames.validate(objectID: id)
        if className == ConversationClass.name {
            return try await find(ObjectQuery(className: className, whereDocument: ["objectId": .string(id)], limit: 1, keys: keys, include: include)).results.first
        }
        let answer = try await client.call(.GET, ["classes", className, id], query: Self.selection(include: include, keys: keys))
        // LeanStorage answers an id it does not have with `{}`.
        return answer["objectId"] == nil ? nil : .object(answer)
    }

    public func update(in className: String, id: String, body: [String: JSONValue], condition: JSONValue?, fetchWhenSave: Bool) async throws -> JSONValue {
        try Self.checkWritable(className)
        try ClassNames.validate(objectID: id)
        let query = Self.condition(condition) + Self.flag(fetchWhenSave)
        var answer = try await client.call(.PUT, ["classes", className, id], query: query, body: .object(body))
        // LeanStorage answers `{updatedAt}` alone.
        answer["objectId"] = .string(id)
        return .object(answer)
    }

    public func delete(in className: String, id: String, condition: JSONValue?) async throws {
        try Self.checkWritable(className)
        try ClassNames.validate(objectID: id)
        _ = try await client.call(.DELETE, ["classes", className, id], query: Self.condition(condition))
    }

    /// `_Conversation` has no pointers to include: its `keys` alone apply.
    public func find(_ query: ObjectQuery) async throws -> ObjectQuery.Result {
        try ClassNames.validate(className: query.className)
        if query.className == ConversationClass.name {
            var result = try await IMClasses.find(query, in: conversations)
            let selection = KeySelection(query.keys)
            if !selection.isEmpty { result.results = result.results.map(selection.apply) }
            return result
        }
        var parameters = [("where", query.whereDocument.jsonString), ("limit", String(query.limit))]
        if query.skip > 0 { parameters.append(("skip", String(query.skip))) }
        if let order = query.order { parameters.append(("order", order)) }
        if query.count { parameters.append(("count", "1")) }
        let answer = try await client.call(.GET, ["classes", query.className], query: parameters + Self.selection(include: query.include, keys: query.keys))
        guard let results = answer["results"]?.arrayValue else { throw client.unexpected("a query of \(query.className)", answer) }
        return .init(results: results, count: query.count ? answer["count"]?.int64Value.map { Int(clamping: $0) } : nil)
    }

    public func scan(in className: String, where whereDocument: JSONValue, scanKey: String?, cursor: String?, limit: Int) async throws -> (results: [JSONValue], cursor: String?) {
        try ClassNames.validate(className: className)
        if className == ConversationClass.name { return try await IMClasses.scan(conversations, where: whereDocument, scanKey: scanKey, cursor: cursor, limit: limit) }
        var parameters = [("where", whereDocument.jsonString)]
        if limit > 0 { parameters.append(("limit", String(limit))) }
        if let scanKey { parameters.append(("scan_key", scanKey)) }
        if let cursor { parameters.append(("cursor", cursor)) }
        let answer = try await client.call(.GET, ["scan", "classes", className], query: parameters)
        guard let results = answer["results"]?.arrayValue else { throw client.unexpected("a scan of \(className)", answer) }
        return (results, answer["cursor"]?.stringValue)
    }

    /// The classes the server's `/1.1/schemas` names.
    public func classNames() async throws -> [String] {
        try await client.call(.GET, ["schemas"]).keys.sorted()
    }

    private static func selection(include: [String], keys: [String]) -> [(String, String)] {
        (include.isEmpty ? [] : [("include", include.joined(separator: ","))]) + (keys.isEmpty ? [] : [("keys", keys.joined(separator: ","))])
    }

    private static func flag(_ fetchWhenSave: Bool) -> [(String, String)] {
        fetchWhenSave ? [("fetchWhenSave", "true")] : []
    }

    private static func condition(_ condition: JSONValue?) -> [(String, String)] {
        condition.map { [("where", $0.jsonString)] } ?? []
    }
}
