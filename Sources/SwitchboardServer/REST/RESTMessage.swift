import Foundation
import SwitchboardCore
import SwitchboardJSON

/// A stored message as LeanCloud's REST API lists it.
enum RESTMessage {
    static func json(_ message: Message, in conversation: Conversation) -> JSONValue {
        var object: [String: JSONValue] = [
            "msg-id": .string(message.id),
            "conv-id": .string(conversation.id),
            "to": .string(conversation.id),
            "from": .string(message.from),
            "timestamp": .int(message.timestamp),
            "is-conv": .bool(!conversation.isTransient),
            "is-room": .bool(conversation.isTransient),
        ]
        switch message.content {
        case .text(let text):
            object["data"] = .string(text)
            object["bin"] = false
        case .binary(let bytes):
            object["data"] = .string(Data(bytes).base64EncodedString())
            object["bin"] = true
        }
        if message.mentionAll { object["mention-all"] = true }
        if !message.mentionPids.isEmpty { object["mention-client-ids"] = .array(message.mentionPids.map(JSONValue.string)) }
        if let patched = message.patchTimestamp { object["patch-timestamp"] = .int(patched) }
        return .object(object)
    }
}
