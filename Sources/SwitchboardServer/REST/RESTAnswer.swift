import SwitchboardCore
import SwitchboardJSON
import SwitchboardWire

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

    /// To members added: the documented answer and, when some were left out,
    /// `failedPids`. LeanCloud's REST docs do not say how it reports those; this is the
    /// SDKs' partial success (`conv/add`'s `failedPids`) in the REST API's words: each
    /// reason with its clients, `{"pids": [...], "code": 4548, "error": "..."}`.
    static func added(_ result: MembershipResult) -> JSONValue {
        var answer = updated(result.conversation).objectValue ?? [:]
        if !result.refused.isEmpty {
            answer["failedPids"] = .array(result.refused.map { refusal in
                [
                    "pids": .array(refusal.clients.map(JSONValue.string)), "code": .int(Int64(refusal.error.code.rawValue)),
                    "error": .string(refusal.error.detail ?? refusal.error.code.reason),
                ]
            })
        }
        return .object(answer)
    }

    /// To a message sent.
    static func sent(_ message: Message) -> JSONValue {
        ["msg-id": .string(message.id), "timestamp": .int(message.timestamp)]
    }

    /// A list of client ids under `key` (`result`, `client_ids`).
    static func clients(_ ids: [String], key: String = "result") -> JSONValue {
        .object([key: .array(ids.map(JSONValue.string))])
    }
}
