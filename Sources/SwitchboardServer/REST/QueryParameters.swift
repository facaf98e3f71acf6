import Hummingbird
import SwitchboardJSON

/// A REST request's query string, read as LeanCloud's REST API reads it.
struct QueryParameters {
    private let values: [String: String]

    init(_ request: Request) {
        values = Dictionary(request.uri.queryParameters.map { (String($0.key), String($0.value)) }, uniquingKeysWith: { first, _ in first })
    }

    subscript(name: String) -> String? { values[name] }

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
}
