import SwitchboardJSON

/// A row of an export file, its fields read by type; each read that fails says which
/// field and what it should have been, which the import reports with the row's file:line.
public struct ExportRow {
    public let fields: [String: JSONValue]

    public init(_ row: JSONValue) throws(ImportRowError) {
        guard let fields = row.objectValue else { throw ImportRowError("a row must be a JSON object") }
        self.fields = fields
    }

    func string(_ key: String) throws(ImportRowError) -> String {
        guard let value = fields[key] else { throw ImportRowError("\(key) is missing") }
        guard let text = value.stringValue, !text.isEmpty else { throw ImportRowError("\(key) must be a non-empty string") }
        return text
    }

    func optionalString(_ key: String) throws(ImportRowError) -> String? {
        guard let value = fields[key], value != .null else { return nil }
        guard let text = value.stringValue else { throw ImportRowError("\(key) must be a string") }
        return text
    }

    func int(_ key: String) throws(ImportRowError) -> Int64 {
        guard let value = try optionalInt(key) else { throw ImportRowError("\(key) is missing") }
        return value
    }

    func optionalInt(_ key: String) throws(ImportRowError) -> Int64? {
        guard let value = fields[key], value != .null else { return nil }
        guard let number = value.int64Value else { throw ImportRowError("\(key) must be a whole number") }
        return number
    }

    /// Absent is false.
    func flag(_ key: String) throws(ImportRowError) -> Bool {
        guard let value = fields[key], value != .null else { return false }
        guard let flag = value.boolValue else { throw ImportRowError("\(key) must be true or false") }
        return flag
    }

    /// Absent is empty.
    func strings(_ key: String) throws(ImportRowError) -> [String] {
        guard let value = fields[key], value != .null else { return [] }
        guard let elements = value.arrayValue else { throw ImportRowError("\(key) must be an array of strings") }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for element in elements {
            guard let text = element.stringValue else { throw ImportRowError("\(key) must be an array of strings") }
            strings.append(text)
        }
        return strings
    }

    /// An ISO string or `{"__type": "Date", "iso": …}`, in milliseconds.
    func date(_ key: String) throws(ImportRowError) -> Int64 {
        guard let value = try optionalDate(key) else { throw ImportRowError("\(key) is missing") }
        return value
    }

    func optionalDate(_ key: String) throws(ImportRowError) -> Int64? {
        guard let value = fields[key], value != .null else { return nil }
        guard let milliseconds = ISODate.milliseconds(from: value) else { throw ImportRowError("\(key) must be an ISO 8601 date") }
        return milliseconds
    }
}

/// Why a row of an export cannot be imported.
public struct ImportRowError: Error, Equatable, CustomStringConvertible {
    public let reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
