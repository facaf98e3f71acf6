/// A refusal of LeanStorage's REST API: its code, its message and the HTTP status it
/// comes with. Scripts see the same code on the error their promise rejects with.
public struct StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: Int
    public let message: String
    public let status: Int

    public init(code: Int, _ message: String, status: Int = 400) {
        self.code = code
        self.message = message
        self.status = status
    }

    public var description: String { "\(message) (\(code))" }

    public static func objectNotFound(_ className: String, id: String) -> Self {
        .init(code: 101, "Could not find object by id '\(id)' for class '\(className)'.", status: 404)
    }

    public static func invalidQuery(_ detail: String) -> Self { .init(code: 102, "Invalid query: \(detail)") }

    public static func invalidClassName(_ name: String) -> Self {
        .init(code: 103, "Invalid class name '\(name)'. Class names are case-sensitive. They must start with a letter, and a-zA-Z0-9_ are the only valid characters.")
    }

    public static func invalidObjectID(_ id: String) -> Self { .init(code: 104, "Invalid object id '\(id)'.") }

    public static func invalidKey(_ key: String) -> Self {
        .init(code: 105, "Invalid key name. Keys are case-sensitive and 'a-zA-Z0-9_' are the only valid characters. The column is: '\(key)'.")
    }

    public static func malformed(_ detail: String) -> Self { .init(code: 107, "Malformed json object. \(detail)") }

    public static func incorrectType(_ detail: String) -> Self { .init(code: 111, "Field set to incorrect type. \(detail)") }

    public static func readOnlyClass(_ className: String, _ detail: String) -> Self {
        .init(code: 119, "That operation isn't allowed for clients. \(className) is read-only here: \(detail)", status: 403)
    }

    public static func tooExpensive(_ detail: String) -> Self {
        .init(code: 124, "The request timed out on the server. Typically this indicates the request is too expensive. \(detail)")
    }

    public static func duplicateID(_ className: String, id: String) -> Self {
        .init(code: 137, "A unique field was given a value that is already taken: objectId '\(id)' of class '\(className)'.")
    }

    public static let noEffect = Self(code: 305, "No effect on updating/deleting a document.")
}

extension StorageError {
    /// What LeanStorage did and Switchboard does not (Relations, geo queries, ...).
    public static func unsupported(_ what: String) -> Self { .init(code: 1, "Not supported by Switchboard: \(what).") }
}
