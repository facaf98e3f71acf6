import Foundation
import Hummingbird
import SwitchboardJSON

/// A REST request's query string, read as LeanCloud's REST API reads it.
struct QueryParameters {
    private let values: [String: String]

    init(_ request: Request) {
        values = Self.formDecoded(request.uri.query ?? "")
    }

    subscript(name: String) -> String? { values[name] }

    /// Every parameter as a JSON string, as LeanStorage's parameters are read (`where`'s
    /// JSON is parsed where it is used).
    var json: [String: JSONValue] { values.mapValues(JSONValue.string) }

    /// A whole number of at least 0, if given.
    func number(_ name: String) throws -> Int64? {
        guard let text = values[name] else { return nil }
        guard let value = Int64(text), value >= 0 else { throw RESTFailure(message: "\(name) is a number") }
        return value
    }

    func flag(_ name: String) throws -> Bool {
        switch values[name] {
        case nil, "false", "0": false
        case "true", "1": true
        default: throw RESTFailure(message: "\(name) is true or false")
        }
    }

    /// `where`, a JSON object (none: every object).
    func whereDocument() throws -> JSONValue {
        guard let text = values["where"], !text.isEmpty else { return .object([:]) }
        guard let value = try? JSONValue(parsing: text), value.objectValue != nil else {
            throw RESTFailure(message: "where is not a JSON object")
        }
        return value
    }

    /// The names and values of a query string as an HTML form encodes them: `+` is a space
    /// (what Python's urlencode, Java's URLEncoder, URLSearchParams and curl's
    /// `--data-urlencode` send for one), then `%XX` escapes. Hummingbird's own reading
    /// leaves `+` as it is. A name given twice keeps its first value; an escape that is
    /// not one is kept as written.
    static func formDecoded(_ query: String) -> [String: String] {
        var values: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decoded(parts[0])
            if values[name] == nil { values[name] = parts.count > 1 ? decoded(parts[1]) : "" }
        }
        return values
    }

    private static func decoded(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
