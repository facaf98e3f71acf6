import Foundation
import SwitchboardJSON

/// A LeanStorage query, `GET /1.1/classes/<Class>` and `AV.Query` alike: the parameters
/// as LeanCloud names them, read once from the REST query string or a script's request.
public struct ObjectQuery: Sendable, Equatable {
    public var className: String
    /// A JSON object; `{}` matches everything.
    public var whereDocument: JSONValue
    public var order: String?
    public var skip: Int
    public var limit: Int
    /// `keys=a,b.c,-d`: empty for all fields.
    public var keys: [String]
    /// `include=author,post.author`: pointer paths to expand.
    public var include: [String]
    /// With `count=1`, the answer has the number of matches.
    public var count: Bool

    public static let defaultLimit = 100
    public static let maxLimit = 1000

    public init(
        className: String, whereDocument: JSONValue = .object([:]), order: String? = nil, skip: Int = 0, limit: Int = defaultLimit,
        keys: [String] = [], include: [String] = [], count: Bool = false
    ) {
        self.className = className
        self.whereDocument = whereDocument
        self.order = order
        self.skip = skip
        self.limit = limit
        self.keys = keys
        self.include = include
        self.count = count
    }

    /// Reads LeanCloud's query parameters: `where` as a JSON object or its text (a
    /// top-level array means `$and`), `order`, `skip`, `limit` (past 1000 gives 1000, as
    /// LeanStorage answered), `keys` and `include` as comma lists or arrays, `count` as
    /// `1` or `true`.
    public init(className: String, parameters: [String: JSONValue]) throws(StorageError) {
        self.init(className: className)
        if let value = parameters["where"], value != .null {
            whereDocument = try Self.whereDocument(value)
        }
        order = parameters["order"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        skip = max(try Self.number("skip", parameters["skip"]) ?? 0, 0)
        limit = min(max(try Self.number("limit", parameters["limit"]) ?? Self.defaultLimit, 0), Self.maxLimit)
        keys = Self.list(parameters["keys"])
        include = Self.list(parameters["include"])
        count = switch parameters["count"] {
        case .bool(let flag): flag
        case .int(let number): number != 0
        case .string(let text): text == "1" || text == "true"
        default: false
        }
    }

    private static func whereDocument(_ value: JSONValue) throws(StorageError) -> JSONValue {
        var document = value
        if let text = value.stringValue {
            guard let parsed = try? JSONValue(parsing: text) else { throw .malformed("where is not valid JSON") }
            document = parsed
        }
        switch document {
        case .object: return document
        case .array(let parts): return .object(["$and": .array(parts)])
        default: throw .malformed("where must be a JSON object")
        }
    }

    private static func number(_ name: String, _ value: JSONValue?) throws(StorageError) -> Int? {
        switch value {
        case nil, .null: return nil
        case .string(let text):
            guard let number = Int(text) else { throw .invalidQuery("\(name) must be a number") }
            return number
        default:
            guard let number = value?.int64Value else { throw .invalidQuery("\(name) must be a number") }
            return Int(clamping: number)
        }
    }

    private static func list(_ value: JSONValue?) -> [String] {
        let names: [String] = switch value {
        case .string(let text): text.split(separator: ",").map(String.init)
        case .array(let items): items.compactMap(\.stringValue)
        default: []
        }
        return names.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The answer: the objects, and their number with `count`.
    public struct Result: Sendable, Equatable {
        public var results: [JSONValue]
        public var count: Int?

        public init(results: [JSONValue], count: Int? = nil) {
            self.results = results
            self.count = count
        }

        /// `{"results": [...], "count": n}`, as LeanStorage answers.
        public var json: JSONValue {
            var object: [String: JSONValue] = ["results": .array(results)]
            if let count { object["count"] = .int(Int64(count)) }
            return .object(object)
        }
    }
}
