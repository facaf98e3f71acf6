import SwitchboardJSON
import SwitchboardWire

/// One key of a `conv/update`: `color` or a dotted path into nested objects (`theme.color`,
/// `attr.color`: the SDK's `attr` is an attribute like any other), with its new value or
/// LeanCloud's `{"__op": "Delete"}`.
struct AttributeUpdate {
    /// Segments a dotted key may have; LeanCloud apps nest a few levels.
    static let maxPathDepth = 8
    static let maxKeyLength = 256
    /// Nesting of the stored attributes, path and value together: deeper could not be read
    /// back (the JSON reader stops at 512) and costs every later read.
    static let maxTotalDepth = 32

    /// The path below the attributes.
    let path: [String]
    /// nil deletes.
    let value: JSONValue?

    init(key: String, value: JSONValue) throws {
        guard key.utf8.count <= Self.maxKeyLength else {
            throw CommandError(.conversationUpdateFailed, detail: "attribute keys are at most \(Self.maxKeyLength) bytes")
        }
        let path = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard path.count <= Self.maxPathDepth, !path.contains(where: \.isEmpty) else {
            throw CommandError(.conversationUpdateFailed, detail: "attribute keys have 1 to \(Self.maxPathDepth) non-empty dotted parts")
        }
        // `name` itself is the conversation's name, set apart before attributes are.
        guard !ConversationDocument.reservedKeys.contains(path[0]) else {
            throw CommandError(.conversationUpdateFailed, detail: "\(path[0]) is the server's and cannot be changed")
        }
        let isDelete = value["__op"]?.stringValue == "Delete"
        guard isDelete || path.count + value.depth <= Self.maxTotalDepth else {
            throw CommandError(.conversationUpdateFailed, detail: "attributes nest at most \(Self.maxTotalDepth) levels")
        }
        self.path = path
        // Not `isDelete ? nil : value`: JSONValue is nil-literal expressible, so that would
        // store JSON null instead of deleting.
        if isDelete { self.value = .none } else { self.value = value }
    }

    /// Sets or deletes the value in place, keeping every other attribute. A path through a
    /// value that is not an object replaces that value with an object.
    func apply(to attributes: inout [String: JSONValue]) {
        Self.set(path[...], to: value, in: &attributes)
    }

    private static func set(_ path: ArraySlice<String>, to value: JSONValue?, in object: inout [String: JSONValue]) {
        guard let head = path.first else { return }
        if path.count == 1 {
            object[head] = value
            return
        }
        var nested = object[head]?.objectValue ?? [:]
        set(path.dropFirst(), to: value, in: &nested)
        object[head] = .object(nested)
    }
}
