import Foundation
import SwitchboardCore
import SwitchboardJSON

/// A stored message as LeanCloud's REST API lists it.
enum RESTMessage {
    /// `isRoom`: whether the message's conversation is a chat room.
    static func json(_ message: Message, isRoom: Bool) -> JSONValue {
        var object: [String: JSONValue] = [
            "msg-id": .string(message.id),
            "conv-id": .string(message.conversationID),
            "to": .string(message.conversationID),
            "from": .string(message.from),
            "timestamp": .int(message.timestamp),
            "is-conv": .bool(!isRoom),
            "is-room": .bool(isRoom),
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
