import SwitchboardJSON

/// Reading a REST request's JSON body: an object, only the fields the endpoint knows.
enum RESTBody {
    /// The body as an object (none is an empty one); with `allowing`, a field not in it is
    /// refused rather than ignored, so a misspelt option does not pass silently.
    static func object(_ body: JSONValue?, allowing known: Set<String>? = nil) throws -> [String: JSONValue] {
        guard let body else { return [:] }
        guard let object = body.objectValue else { throw RESTFailure(message: "the body is not a JSON object") }
        if let known, let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw RESTFailure(message: "unknown field \(unknown)")
        }
        return object
    }

    static func string(_ object: [String: JSONValue], _ key: String) throws -> String {
        guard let value = object[key]?.stringValue, !value.isEmpty else { throw RESTFailure(message: "\(key) is required, a string") }
        return value
    }
}
