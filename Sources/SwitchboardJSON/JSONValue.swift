import Foundation

/// A JSON document kept as a value, so conversation attributes and query documents can be
/// passed between tasks and compared without Foundation's untyped dictionaries.
public enum JSONValue: Sendable, Equatable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(parsing text: String) throws(JSONSyntaxError) {
        self = try JSONText.parse(text)
    }

    /// What `try JSONValue(parsing: text)[name]` answers, for the price of a scan: the rest of
    /// the document is checked but not built.
    public static func member(_ name: String, ofObjectIn text: String) throws(JSONSyntaxError) -> JSONValue? {
        try JSONText.member(name, ofObjectIn: text)
    }

    /// Compact JSON with sorted keys, so equal values always serialize the same way.
    public var jsonString: String {
        JSONText.write(self)
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var int64Value: Int64? {
        switch self {
        case .int(let value): value
        case .double(let value) where value.rounded() == value && abs(value) < 9e18: Int64(value)
        default: nil
        }
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue {
    /// An array of strings.
    public static func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }
}

extension JSONValue {
    /// Levels of nesting: 0 for a scalar, 1 for a flat array or object.
    public var depth: Int {
        switch self {
        case .array(let elements): 1 + (elements.map(\.depth).max() ?? 0)
        case .object(let members): 1 + (members.values.map(\.depth).max() ?? 0)
        default: 0
        }
    }
}
