/// Evaluates a MongoDB-style `where` document, as LeanCloud's `conv/query` sends it,
/// against a JSON object.
///
/// Supported: implicit equality (an array field matches when it contains the value),
/// `$eq`, `$ne`, `$in`, `$nin`, `$all`, `$exists`, `$size`, `$gt`, `$gte`, `$lt`, `$lte`,
/// `$regex` with `$options` (see `LinearRegex`), `$and`, `$or`, and dotted paths into nested
/// objects and arrays of them. LeanCloud dates (`{"__type": "Date", "iso": ...}`) compare
/// as moments, by their ISO string in UTC with milliseconds.
public struct DocumentFilter: Sendable {
    public struct Unsupported: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Values a document may hold: a query costs this times the conversations it reads.
    public static let maxTerms = 200
    /// Nesting of `$and` and `$or`.
    public static let maxNesting = 4

    let conditions: [String: JSONValue]
    /// The document's `$regex` patterns, compiled once, by `Self.regexKey`.
    let regexes: [String: LinearRegex]

    /// - Parameter maxTerms: values the document may hold (app data's subqueries become long lists).
    public init(_ document: JSONValue, maxTerms: Int = maxTerms) throws(Unsupported) {
        guard let conditions = document.objectValue else { throw Unsupported(description: "where must be a JSON object") }
        self.conditions = conditions
        guard Self.termCount(document) <= maxTerms else {
            throw Unsupported(description: "where holds more than \(maxTerms) values")
        }
        var regexes: [String: LinearRegex] = [:]
        try Self.validate(document, nesting: 0, regexes: &regexes)
        self.regexes = regexes
    }

    private static func regexKey(_ operators: [String: JSONValue]) -> String? {
        guard let pattern = operators["$regex"]?.stringValue else { return nil }
        return (operators["$options"]?.stringValue ?? "") + "/" + pattern
    }

    private static func termCount(_ value: JSONValue) -> Int {
        switch value {
        case .array(let elements): elements.reduce(0) { $0 + termCount($1) }
        case .object(let members): members.values.reduce(0) { $0 + termCount($1) }
        default: 1
        }
    }

    public func matches(_ object: JSONValue) -> Bool {
        matches(conditions, object)
    }

    private static let fieldOperators: Set<String> = ["$eq", "$ne", "$in", "$nin", "$all", "$exists", "$size", "$gt", "$gte", "$lt", "$lte", "$regex", "$options"]

    private static func validate(_ document: JSONValue, nesting: Int, regexes: inout [String: LinearRegex]) throws(Unsupported) {
        guard let object = document.objectValue else { return }
        for (key, value) in object {
            if key == "$and" || key == "$or" {
                guard let parts = value.arrayValue else { throw Unsupported(description: "\(key) takes an array") }
                guard nesting < maxNesting else { throw Unsupported(description: "$and and $or nest at most \(maxNesting) levels") }
                for part in parts { try validate(part, nesting: nesting + 1, regexes: &regexes) }
            } else if key.hasPrefix("$") {
                throw Unsupported(description: "unsupported operator \(key)")
            } else if let operators = value.objectValue, operators.keys.contains(where: { $0.hasPrefix("$") }) {
                for name in operators.keys where !fieldOperators.contains(name) {
                    throw Unsupported(description: "unsupported operator \(name)")
                }
                for name in ["$in", "$nin", "$all"] where operators[name].map({ $0.arrayValue == nil }) == true {
                    throw Unsupported(description: "\(name) takes an array")
                }
                if let size = operators["$size"], size.int64Value == nil { throw Unsupported(description: "$size takes a whole number") }
                guard let regex = operators["$regex"] else { continue }
                guard let pattern = regex.stringValue, let key = regexKey(operators) else { throw Unsupported(description: "$regex takes a string") }
                do {
                    regexes[key] = try LinearRegex(pattern, options: operators["$options"]?.stringValue ?? "")
                } catch {
                    throw Unsupported(description: error.description)
                }
            }
        }
    }

    private func matches(_ conditions: [String: JSONValue], _ object: JSONValue) -> Bool {
        conditions.allSatisfy { key, condition in
            switch key {
            case "$and": (condition.arrayValue ?? []).allSatisfy { matches($0.objectValue ?? [:], object) }
            case "$or": (condition.arrayValue ?? []).contains { matches($0.objectValue ?? [:], object) }
            default: fieldMatches(Self.value(at: key, in: object), condition)
            }
        }
    }

    /// The value at a dotted path: through objects, and through an array to one element by
    /// its index (`items.0`) or into each of its objects (`items.sku`: the items' skus, as
    /// an array, which equals each of them, as in MongoDB).
    static func value(at path: String, in object: JSONValue) -> JSONValue? {
        value(at: path.split(separator: ".")[...], in: object)
    }

    private static func value(at path: ArraySlice<Substring>, in value: JSONValue?) -> JSONValue? {
        guard let value, let component = path.first else { return value }
        switch value {
        case .object(let members):
            return Self.value(at: path.dropFirst(), in: members[String(component)])
        case .array(let elements):
            if let index = Int(component) { return elements.indices.contains(index) ? Self.value(at: path.dropFirst(), in: elements[index]) : nil }
            var found: [JSONValue] = []
            for element in elements where element.objectValue != nil {
                guard let reached = Self.value(at: path, in: element) else { continue }
                found += reached.arrayValue ?? [reached]
            }
            return found.isEmpty ? nil : .array(found)
        default:
            return nil
        }
    }

    private func fieldMatches(_ field: JSONValue?, _ condition: JSONValue) -> Bool {
        guard let operators = condition.objectValue, operators.keys.contains(where: { $0.hasPrefix("$") }) else {
            return Self.equals(field, condition)
        }
        return operators.allSatisfy { name, operand in
            switch name {
            case "$regex":
                // A string field, or an array holding a string, that the pattern finds.
                Self.regexKey(operators).flatMap { regexes[$0] }.map { regex in
                    (field?.arrayValue ?? field.map { [$0] } ?? []).contains { $0.stringValue.map(regex.matches) ?? false }
                } ?? false
            case "$options": true
            case "$eq": Self.equals(field, operand)
            case "$ne": !Self.equals(field, operand)
            case "$in": (operand.arrayValue ?? []).contains { Self.equals(field, $0) }
            case "$nin": !(operand.arrayValue ?? []).contains { Self.equals(field, $0) }
            // Of nothing, nothing (as MongoDB has it).
            case "$all": operand.arrayValue.map { !$0.isEmpty && $0.allSatisfy { Self.equals(field, $0) } } ?? false
            case "$exists": (field != nil && field != .null) == (operand.boolValue ?? true)
            case "$size": field?.arrayValue?.count == operand.int64Value.map(Int.init)
            case "$gt": Self.compares(field, operand) { $0 > 0 }
            case "$gte": Self.compares(field, operand) { $0 >= 0 }
            case "$lt": Self.compares(field, operand) { $0 < 0 }
            case "$lte": Self.compares(field, operand) { $0 <= 0 }
            default: false
            }
        }
    }

    /// Equality as MongoDB means it: an array field equals a value it contains.
    private static func equals(_ field: JSONValue?, _ value: JSONValue) -> Bool {
        guard let field else { return value == .null }
        if case .array(let elements) = field, value.arrayValue == nil {
            return elements.contains { comparable($0) == comparable(value) }
        }
        return comparable(field) == comparable(value)
    }

    /// Whether the field compares with `value` as `test` wants; an array field when one of
    /// its elements does, as MongoDB has it.
    private static func compares(_ field: JSONValue?, _ value: JSONValue, _ test: (Int) -> Bool) -> Bool {
        guard let field else { return false }
        if case .array(let elements) = field, value.arrayValue == nil {
            return elements.contains { order(comparable($0), comparable(value)).map(test) ?? false }
        }
        return order(comparable(field), comparable(value)).map(test) ?? false
    }

    /// Orders two values of the same kind; nil when they cannot be compared.
    public static func order(_ lhs: JSONValue, _ rhs: JSONValue) -> Int? {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a == b ? 0 : (a < b ? -1 : 1)
        case (.bool(let a), .bool(let b)): a == b ? 0 : (!a ? -1 : 1)
        default:
            if let a = number(lhs), let b = number(rhs) { a == b ? 0 : (a < b ? -1 : 1) } else { nil }
        }
    }

    private static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let v): Double(v)
        case .double(let v): v
        default: nil
        }
    }

    /// Dates become their ISO strings, pointers their class and id (an included one has
    /// its object's fields too) and numbers one kind, so that they compare as values.
    public static func comparable(_ value: JSONValue) -> JSONValue {
        switch value["__type"]?.stringValue {
        case "Date": if let iso = value["iso"] { return canonicalDate(iso) }
        case "Pointer":
            return .object(["__type": .string("Pointer"), "className": value["className"] ?? .null, "objectId": value["objectId"] ?? .null])
        default: break
        }
        if case .double(let number) = value, number.rounded() == number, abs(number) < 9e18 { return .int(Int64(number)) }
        return value
    }

    /// A date's ISO text in LeanCloud's form (UTC, milliseconds: how `createdAt` reads), so
    /// that dates compare as moments whatever form a client sent (`…05Z`, `…13:04:05+08:00`).
    private static func canonicalDate(_ iso: JSONValue) -> JSONValue {
        guard let text = iso.stringValue, !isCanonicalDate(text), let milliseconds = ISODate.milliseconds(from: iso) else { return iso }
        return .string(ISODate.string(milliseconds: milliseconds))
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ`: nothing to parse.
    private static func isCanonicalDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 24 else { return false }
        let separators: [Int: UInt8] = [4: 0x2D, 7: 0x2D, 10: 0x54, 13: 0x3A, 16: 0x3A, 19: 0x2E, 23: 0x5A]
        return bytes.indices.allSatisfy { index in
            separators[index].map { bytes[index] == $0 } ?? (0x30...0x39).contains(bytes[index])
        }
    }
}
