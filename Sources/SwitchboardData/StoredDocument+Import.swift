import SwitchboardJSON

extension StoredDocument {
    /// A row as LeanStorage exported it or a fixtures file gives it (its REST form): its
    /// `objectId`, `createdAt` and `updatedAt` kept when present (made when missing), the
    /// rest its fields, with key names checked as a save checks them.
    public init(importing row: JSONValue, className: String, now: Int64) throws(StorageError) {
        try ClassNames.validate(className: className)
        guard var fields = row.objectValue else { throw .malformed("a row of \(className) is not a JSON object") }
        let id = fields.removeValue(forKey: "objectId")?.stringValue ?? ObjectIDs.make(at: now)
        try ClassNames.validate(objectID: id)
        let createdAt = fields.removeValue(forKey: "createdAt").flatMap(ISODate.milliseconds(from:)) ?? now
        let updatedAt = fields.removeValue(forKey: "updatedAt").flatMap(ISODate.milliseconds(from:)) ?? createdAt
        for key in fields.keys { try ClassNames.validate(key: key) }
        self.init(className: className, objectID: id, createdAt: createdAt, updatedAt: updatedAt, fields: fields)
    }
}
