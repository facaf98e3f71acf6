import SwitchboardJSON

/// The parameters of one hook point, typed for Swift plugins and as `request.params` JSON
/// for scripts.
public protocol HookRequest: Sendable, Equatable {
    associatedtype Result: HookResult
    var point: HookPoint { get }
    /// The parameters exactly as LeanCloud documents them.
    var params: JSONValue { get }
    /// `params` as JSON text, as scripts get them: a hook point called for every message
    /// writes it straight from its fields (see `JSONObjectWriter`).
    var paramsJSON: String { get }
    /// What the next handler in the chain sees after `result`.
    func applying(_ result: Result) -> Self
    /// Calls the plugin method for this hook point.
    func dispatch(to plugin: any SwitchboardPlugin) async throws -> Result
}

extension HookRequest {
    public var paramsJSON: String { params.jsonString }
}

/// What a handler answers. `{}` (`passThrough`) means "default behaviour".
public protocol HookResult: Sendable {
    static var passThrough: Self { get }
    /// Reads a script's answer; unknown keys are ignored, malformed known ones throw.
    init(json: JSONValue) throws(HookResultError)
    /// A drop or reject: later handlers do not run.
    var stopsChain: Bool { get }
    /// The code and detail the client is told when the chain stops here.
    var code: Int32? { get }
    var detail: String? { get }
    /// The result a failing handler stands for under the `closed` failure policy.
    static func failedClosed(detail: String) -> Self
}

/// A handler's answer that does not have the documented shape.
public struct HookResultError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Lenient readers for results written by scripts: LeanCloud treats any truthy value as
/// true, and numbers may arrive as doubles.
enum ResultField {
    static func object(_ json: JSONValue) throws(HookResultError) -> [String: JSONValue] {
        switch json {
        case .object(let object): return object
        case .null: return [:]
        default: throw HookResultError("a hook must return an object, not \(json.jsonString)")
        }
    }

    static func truthy(_ value: JSONValue?) -> Bool {
        switch value {
        case nil, .null?, .bool(false)?, .int(0)?, .string("")?: false
        case .double(let number)?: number != 0 && !number.isNaN
        default: true
        }
    }

    static func int32(_ value: JSONValue?, _ key: String) throws(HookResultError) -> Int32? {
        guard let value, value != .null else { return nil }
        guard let number = value.int64Value, let narrowed = Int32(exactly: number) else {
            throw HookResultError("\(key) must be an integer")
        }
        return narrowed
    }

    static func string(_ value: JSONValue?, _ key: String) throws(HookResultError) -> String? {
        guard let value, value != .null else { return nil }
        guard let string = value.stringValue else { throw HookResultError("\(key) must be a string") }
        return string
    }

    static func strings(_ value: JSONValue?, _ key: String) throws(HookResultError) -> [String]? {
        guard let value, value != .null else { return nil }
        guard let array = value.arrayValue else { throw HookResultError("\(key) must be an array of strings") }
        var strings: [String] = []
        for element in array {
            guard let string = element.stringValue else { throw HookResultError("\(key) must be an array of strings") }
            strings.append(string)
        }
        return strings
    }
}

extension Array where Element == String {
    /// The ids of `self` that are in `allowed`, in this order, without repeats.
    func narrowing(_ allowed: [String]) -> [String] {
        let permitted = Set(allowed)
        var seen = Set<String>()
        return filter { permitted.contains($0) && seen.insert($0).inserted }
    }
}
