import Foundation
import GRDB
import SwitchboardCore
import SwitchboardJSON

/// Conversions between table rows and domain values, in one place.
enum RowMapping {
    static func conversation(_ row: Row, members: [String]) -> Conversation {
        Conversation(
            id: row["id"],
            kind: Conversation.Kind(rawValue: row["kind"]) ?? .normal,
            name: row["name"],
            creator: row["creator"],
            members: members,
            attributes: (try? JSONValue(parsing: row["attributes"]))?.objectValue ?? [:],
            uniqueKey: row["unique_key"],
            mutedBy: stringArray(row["muted_by"]),
            managers: stringArray(row["managers"]),
            silenced: stringArray(row["silenced"]),
            silencedUntil: ((try? JSONValue(parsing: row["silenced_until"]))?.objectValue ?? [:]).compactMapValues(\.int64Value),
            blocked: stringArray(row["blocked"]),
            createdAt: row["created_at"],
            updatedAt: row["updated_at"],
            lastMessageAt: row["last_message_at"],
            expiresAt: row["expires_at"]
        )
    }

    static func membership(_ row: Row) -> Membership {
        Membership(conversationID: row["conversation_id"], clientID: row["client_id"], joinedAt: row["joined_at"])
    }

    static func message(_ row: Row) -> Message {
        let content: MessageContent
        if let bytes: Data = row["bytes"] {
            content = .binary(Array(bytes))
        } else {
            content = .text(row["text"] ?? "")
        }
        return Message(
            id: row["id"],
            conversationID: row["conversation_id"],
            from: row["sender"],
            content: content,
            timestamp: row["timestamp"],
            mentionAll: row["mention_all"],
            mentionPids: stringArray(row["mention_pids"]),
            patchTimestamp: row["patch_timestamp"],
            wantsReceipt: row["wants_receipt"],
            clientToken: row["client_token"],
            seq: row["seq"],
            audience: (row["audience"] as String?).map(stringArray)
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

    private static func stringArray(_ text: String?) -> [String] {
        guard let text, let value = try? JSONValue(parsing: text), let array = value.arrayValue else { return [] }
        return array.compactMap(\.stringValue)
    }
}
