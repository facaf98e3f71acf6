import SwitchboardJSON

extension StorageCall {
    /// An element of `/1.1/batch`'s `requests`: `method`, `path` as the SDKs send it
    /// (`/1.1/classes/Post/<id>`; without `/1.1` as well; a query string in it counts as
    /// `params`), `body` and `params`.
    init(batchElement element: JSONValue) throws {
        guard let method = element["method"]?.stringValue?.uppercased(), let path = element["path"]?.stringValue else {
            throw RESTFailure(message: "a batch request is an object with a method and a path")
        }
        let body: [String: JSONValue]
        switch element["body"] {
        case nil, .null: body = [:]
        case .object(let members): body = members
        default: throw RESTFailure(message: "the body of a batch request is a JSON object")
        }
        var parameters: [String: JSONValue]
        switch element["params"] {
        case nil, .null: parameters = [:]
        case .object(let members): parameters = members
        default: throw RESTFailure(message: "the params of a batch request are a JSON object")
        }
        let parts = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        for (name, value) in QueryParameters.formDecoded(parts.count > 1 ? String(parts[1]) : "") where parameters[name] == nil {
            parameters[name] = .string(value)
        }
        var segments = parts[0].split(separator: "/").map(String.init)
        if segments.first == "1.1" { segments.removeFirst() }
        switch (method, segments.count, segments.first) {
        case ("POST", 2, "classes"): self = .create(className: segments[1], body: body, parameters: parameters)
        case ("GET", 2, "classes"): self = .find(className: segments[1], parameters: parameters)
        case ("GET", 3, "classes"): self = .fetch(className: segments[1], id: segments[2], parameters: parameters)
        case ("PUT", 3, "classes"): self = .update(className: segments[1], id: segments[2], body: body, parameters: parameters)
        case ("DELETE", 3, "classes"): self = .delete(className: segments[1], ids: segments[2], parameters: parameters)
        case ("GET", 3, "scan") where segments[1] == "classes": self = .scan(className: segments[2], parameters: parameters)
        default:
            throw RESTFailure(message: "\(method) \(path) is not a call /1.1/batch takes: /1.1/classes/<Class>[/<objectId>] or /1.1/scan/classes/<Class>")
        }
    }
}
