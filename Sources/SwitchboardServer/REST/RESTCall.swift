import SwitchboardJSON

/// One request to a `RESTRoute`, read: its path parameters, query string and JSON body.
struct RESTCall: Sendable {
    let pathParameters: [String: String]
    let query: QueryParameters
    let body: [String: JSONValue]

    /// A parameter of the route's path (the router matched it, so it is there).
    func path(_ name: String) -> String { pathParameters[name] ?? "" }

    /// A required string of the body.
    func string(_ name: String) throws -> String {
        guard let value = body[name]?.stringValue, !value.isEmpty else { throw RESTFailure(message: "\(name) is required, a string") }
        return value
    }

    /// A required parameter of the query string.
    func queryString(_ name: String) throws -> String {
        guard let value = query[name], !value.isEmpty else { throw RESTFailure(message: "\(name) is required") }
        return value
    }

    /// A required array of strings of the body (`client_ids`).
    func strings(_ name: String) throws -> [String] {
        guard let values = body[name]?.arrayValue, !values.isEmpty else { throw RESTFailure(message: "\(name) is required, an array of strings") }
        return try values.map {
            guard let value = $0.stringValue else { throw RESTFailure(message: "\(name) is an array of strings") }
            return value
        }
    }

    /// A required whole number of the body or, failing that, of the query string.
    func number(_ name: String) throws -> Int64 {
        if let value = body[name] {
            guard let number = value.int64Value else { throw RESTFailure(message: "\(name) is a number") }
            return number
        }
        guard let number = try query.number(name) else { throw RESTFailure(message: "\(name) is required, a number") }
        return number
    }
}
