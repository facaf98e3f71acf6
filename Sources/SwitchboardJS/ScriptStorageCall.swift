import SwitchboardData
import SwitchboardHooks
import SwitchboardJSON

/// An `AV.Object` or `AV.Query` call as the prelude asks it: `{action, className, ...}`
/// with `action` one of `create` (`body`, `fetchWhenSave`), `object` (`id`, `include`,
/// `keys`), `update` (`id`, `body`, `where`, `fetchWhenSave`), `delete` (`id`, `where`),
/// `find` (LeanStorage's query parameters) and `scan` (`where`, `scanKey`, `cursor`,
/// `limit`). Answered as LeanStorage's REST API answers.
struct ScriptStorageCall: Sendable {
    let action: String
    let className: String
    private let request: JSONValue

    init(_ request: JSONValue) {
        action = request["action"]?.stringValue ?? ""
        className = request["className"]?.stringValue ?? ""
        self.request = request
    }

    /// Makes the call, giving up once `remaining` has passed: a local store answers at
    /// once, an external LeanStorage may not, and the hook call must end within its budget.
    func run(on data: any AppData, within remaining: Duration) async throws -> JSONValue {
        guard remaining > .zero else { throw budgetSpent }
        do {
            return try await Budget.run(remaining) { try await perform(on: data) }
        } catch is HookTimeout {
            throw budgetSpent
        }
    }

    private var budgetSpent: StorageError {
        StorageError(code: 124, "The request timed out: the hook call's budget was spent before \(action) on \(className) answered.")
    }

    private func perform(on data: any AppData) async throws -> JSONValue {
        switch action {
        case "create":
            return try await data.create(in: className, body: try body(), fetchWhenSave: fetchWhenSave)
        case "object":
            return try await data.object(in: className, id: try id(), include: strings("include"), keys: strings("keys")) ?? .null
        case "update":
            return try await data.update(in: className, id: try id(), body: try body(), condition: condition, fetchWhenSave: fetchWhenSave)
        case "delete":
            try await data.delete(in: className, id: try id(), condition: condition)
            return .object([:])
        case "find":
            return try await data.find(try ObjectQuery(className: className, parameters: request.objectValue ?? [:])).json
        case "scan":
            let page = try await data.scan(
                in: className, where: request["where"] ?? .object([:]), scanKey: request["scanKey"]?.stringValue,
                cursor: request["cursor"]?.stringValue, limit: Int(clamping: request["limit"]?.int64Value ?? 0)
            )
            return ["results": .array(page.results), "cursor": page.cursor.map(JSONValue.string) ?? .null]
        default:
            throw StorageError.malformed("Unknown storage call '\(action)'.")
        }
    }

    private func body() throws(StorageError) -> [String: JSONValue] {
        guard let body = request["body"]?.objectValue else { throw .malformed("A save needs an object of fields.") }
        return body
    }

    private func id() throws(StorageError) -> String {
        guard let id = request["id"]?.stringValue else { throw .invalidObjectID("") }
        return id
    }

    private var fetchWhenSave: Bool { request["fetchWhenSave"]?.boolValue ?? false }

    /// The `where` a conditional update or delete must match.
    private var condition: JSONValue? {
        guard let condition = request["where"], condition != .null else { return nil }
        return condition
    }

    private func strings(_ name: String) -> [String] {
        (request[name]?.arrayValue ?? []).compactMap(\.stringValue)
    }
}
