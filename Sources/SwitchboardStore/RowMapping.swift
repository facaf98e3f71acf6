import Foundation
import GRDB
import SwitchboardCore
import SwitchboardData
import SwitchboardJSON

/// Conversions between table rows and domain values, in one place.
enum RowMapping {
    static func conversation(_ row: some StoredRow, members: [String]) -> Conversation {
        Conversation(
            id: row.string("id") ?? "",
            kind: row.int64("kind").flatMap { Conversation.Kind(rawValue: Int($0)) } ?? .normal,
            name: row.string("name"),
            creator: row.string("creator") ?? "",
            members: members,
            attributes: row.string("attributes").flatMap { try? JSONValue(parsing: $0) }?.objectValue ?? [:],
            uniqueKey: row.string("unique_key"),
            mutedBy: stringArray(row.string("muted_by")),
            managers: stringArray(row.string("managers")),
            silenced: stringArray(row.string("silenced")),
            silencedUntil: (row.string("silenced_until").flatMap { try? JSONValue(parsing: $0) }?.objectValue ?? [:]).compactMapValues(\.int64Value),
            blocked: stringArray(row.string("blocked")),
            createdAt: row.int64("created_at") ?? 0,
            updatedAt: row.int64("updated_at") ?? 0,
            lastMessageAt: row.int64("last_message_at"),
            expiresAt: row.int64("expires_at")
        )
    }

    static func managedConversation(_ row: some StoredRow) -> ManagedConversation {
        ManagedConversation(
            id: row.string("id") ?? "", managers: stringArray(row.string("managers")),
            createdAt: row.int64("created_at") ?? 0, updatedAt: row.int64("updated_at") ?? 0, expiresAt: row.int64("expires_at")
        )
    }

    /// An `installation` row with its channels; nil for a device type this version does not know.
    static func installation(_ row: some StoredRow, channels: [String]) -> SavedInstallation? {
        guard let type = row.string("device_type").flatMap(Installation.DeviceType.init(rawValue:)) else { return nil }
        return SavedInstallation(
            objectID: row.string("object_id") ?? "",
            installation: Installation(
                deviceType: type, deviceToken: row.string("device_token"), installationID: row.string("installation_id"),
                registrationID: row.string("registration_id"), vendor: row.string("vendor"),
                deviceProfile: row.string("device_profile"), channels: channels
            ),
            badge: Int(row.int64("badge") ?? 0), createdAt: row.int64("created_at") ?? 0, updatedAt: row.int64("updated_at") ?? 0
        )
    }

    static func membership(_ row: some StoredRow) -> Membership {
        Membership(conversationID: row.string("conversation_id") ?? "", clientID: row.string("client_id") ?? "", joinedAt: row.int64("joined_at") ?? 0)
    }

    static func message(_ row: some StoredRow) -> Message {
        let content: MessageContent
        if let bytes = row.data("bytes") {
            content = .binary(Array(bytes))
        } else {
            content = .text(row.string("text") ?? "")
        }
        return Message(
            id: row.string("id") ?? "",
            conversationID: row.string("conversation_id") ?? "",
            from: row.string("sender") ?? "",
            content: content,
            timestamp: row.int64("timestamp") ?? 0,
            mentionAll: row.bool("mention_all") ?? false,
            mentionPids: stringArray(row.string("mention_pids")),
            patchTimestamp: row.int64("patch_timestamp"),
            wantsReceipt: row.bool("wants_receipt") ?? false,
            clientToken: row.string("client_token"),
            seq: row.int64("seq"),
            audience: row.string("audience").map(stringArray)
        )
    }

    /// The `text` and `bytes` columns of a message's content; one of them is null.
    static func columns(_ content: MessageContent) -> (text: String?, bytes: Data?) {
        switch content {
        case .text(let value): (value, nil)
        case .binary(let value): (nil, Data(value))
        }
    }

    static func json(_ strings: [String]) -> String {
        JSONValue.array(strings.map(JSONValue.string)).jsonString
    }

    static func json(_ times: [String: Int64]) -> String {
        JSONValue.object(times.mapValues(JSONValue.int)).jsonString
    }

    /// A string as JSON: `mention_pids` holds a JSON array, so the quoted id matches whole
    /// elements only.
    static func quoted(_ string: String) -> String {
        JSONValue.string(string).jsonString
    }

    static func json(_ object: [String: JSONValue]) -> String {
        JSONValue.object(object).jsonString
    }

    static func stringArray(_ text: String?) -> [String] {
        guard let text, let value = try? JSONValue(parsing: text), let array = value.arrayValue else { return [] }
        return array.compactMap(\.stringValue)
    }
}

extension RowMapping {
    /// A `storage_object` row; a `data` that is not a JSON object is refused rather than
    /// read as no fields, which a save would then write back.
    static func document(_ row: some StoredRow) throws -> StoredDocument {
        let className = row.string("class_name") ?? "", id = row.string("object_id") ?? ""
        guard let fields = row.string("data").flatMap({ try? JSONValue(parsing: $0) })?.objectValue else {
            throw StorageError(code: 1, "Internal server error: the stored object '\(id)' of class '\(className)' is not a JSON object.")
        }
        return StoredDocument(
            className: className, objectID: id, createdAt: row.int64("created_at") ?? 0, updatedAt: row.int64("updated_at") ?? 0, fields: fields
        )
    }
}
