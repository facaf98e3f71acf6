import SwitchboardCore
import SwitchboardJSON

/// The answers LeanCloud's REST API gives again and again.
enum RESTAnswer {
    /// To a conversation created.
    static func created(_ conversation: Conversation) -> JSONValue {
        ["objectId": .string(conversation.id), "createdAt": .string(ISODate.string(milliseconds: conversation.createdAt))]
    }

    /// To a conversation changed.
    static func updated(_ conversation: Conversation) -> JSONValue {
        ["objectId": .string(conversation.id), "updatedAt": .string(ISODate.string(milliseconds: conversation.updatedAt))]
    }

    /// To a message sent.
    static func sent(_ message: (id: String, timestamp: Int64)) -> JSONValue {
        ["msg-id": .string(message.id), "timestamp": .int(message.timestamp)]
    }

    /// A list of client ids under `key` (`result`, `client_ids`).
    static func clients(_ ids: [String], key: String = "result") -> JSONValue {
        .object([key: .array(ids.map(JSONValue.string))])
    }
}
