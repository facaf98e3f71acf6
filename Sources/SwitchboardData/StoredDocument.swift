import SwitchboardJSON

/// One object of an app class as stored: the fields the app set (no `objectId`,
/// `createdAt` or `updatedAt` among them) and the three LeanStorage keeps itself.
public struct StoredDocument: Sendable, Equatable {
    public let className: String
    public let objectID: String
    /// Milliseconds since 1970.
    public let createdAt: Int64
    public var updatedAt: Int64
    public var fields: [String: JSONValue]

    public init(className: String, objectID: String, createdAt: Int64, updatedAt: Int64, fields: [String: JSONValue]) {
        self.className = className
        self.objectID = objectID
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.fields = fields
    }

    /// The object as LeanStorage's REST API shows it: its fields, `objectId`, and
    /// `createdAt`/`updatedAt` as plain ISO strings.
    public var json: JSONValue {
        var object = fields
        object["objectId"] = .string(objectID)
        object["createdAt"] = .string(ISODate.string(milliseconds: createdAt))
        object["updatedAt"] = .string(ISODate.string(milliseconds: updatedAt))
        return .object(object)
    }

    /// The keys LeanStorage sets itself; a body's values for them are ignored.
    public static let builtInKeys: Set<String> = ["objectId", "createdAt", "updatedAt"]
}
