import Hummingbird
import SwitchboardData
import SwitchboardJSON

/// One call of LeanStorage's REST API, however it came: on a route of its own or as an
/// element of `/1.1/batch`. `parameters` are the query string's, or a batch element's
/// `params`, under LeanCloud's names (`where`, `include`, `fetchWhenSave`, ...).
enum StorageCall: Sendable {
    case create(className: String, body: [String: JSONValue], parameters: [String: JSONValue])
    case fetch(className: String, id: String, parameters: [String: JSONValue])
    case update(className: String, id: String, body: [String: JSONValue], parameters: [String: JSONValue])
    /// `ids`: one, or several as the JavaScript SDK's `destroyAll` sends them (`a,b,c`).
    case delete(className: String, ids: String, parameters: [String: JSONValue])
    case find(className: String, parameters: [String: JSONValue])
    case scan(className: String, parameters: [String: JSONValue])

    /// Runs the call on the app's data and answers as LeanStorage did.
    func run(on appData: any AppData) async throws -> RESTReply {
        switch self {
        case .create(let className, let body, let parameters):
            let created = try await appData.create(in: className, body: body, fetchWhenSave: Self.fetchWhenSave(parameters))
            let location = "/1.1/classes/\(className)/\(created["objectId"]?.stringValue ?? "")"
            return RESTReply(body: created, headers: [.location: location])
        case .fetch(let className, let id, let parameters):
            let query = try ObjectQuery(className: className, parameters: parameters)
            // No such object answers `{}`, as LeanStorage's did; the SDKs expect it.
            return RESTReply(body: try await appData.object(in: className, id: id, include: query.include, keys: query.keys) ?? [:])
        case .update(let className, let id, let body, let parameters):
            let condition = try Self.condition(parameters, className: className)
            return RESTReply(body: try await appData.update(
                in: className, id: id, body: body, condition: condition, fetchWhenSave: Self.fetchWhenSave(parameters)
            ))
        case .delete(let className, let ids, let parameters):
            let condition = try Self.condition(parameters, className: className)
            for id in ids.split(separator: ",", omittingEmptySubsequences: false) {
                try await appData.delete(in: className, id: String(id), condition: condition)
            }
            return RESTReply(body: [:])
        case .find(let className, let parameters):
            return RESTReply(body: try await appData.find(ObjectQuery(className: className, parameters: parameters)).json)
        case .scan(let className, let parameters):
            // `where` and `limit` as a query reads them; `limit` 0 is the default page.
            let query = try ObjectQuery(className: className, parameters: parameters)
            let cursor = parameters["cursor"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            let page = try await appData.scan(
                in: className, where: query.whereDocument, scanKey: parameters["scan_key"]?.stringValue, cursor: cursor, limit: query.limit
            )
            return RESTReply(body: ["results": .array(page.results), "cursor": page.cursor.map(JSONValue.string) ?? .null])
        }
    }

    /// `fetchWhenSave=true` (the Python SDK, the JavaScript SDK's `saveAll`) or `new=true`
    /// (the JavaScript SDK's `save`): the answer carries the object's fields.
    private static func fetchWhenSave(_ parameters: [String: JSONValue]) -> Bool {
        ["fetchWhenSave", "new"].contains { name in
            switch parameters[name] {
            case .bool(let flag): flag
            case .int(let number): number != 0
            case .string(let text): text == "true" || text == "1"
            default: false
            }
        }
    }

    /// A conditional update's or delete's `where`, read as a query's.
    private static func condition(_ parameters: [String: JSONValue], className: String) throws -> JSONValue? {
        guard let value = parameters["where"], value != .null else { return nil }
        return try ObjectQuery(className: className, parameters: ["where": value]).whereDocument
    }
}
