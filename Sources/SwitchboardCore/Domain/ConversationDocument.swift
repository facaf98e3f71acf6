import Foundation
import SwitchboardJSON

/// A conversation as the JSON object LeanCloud's SDKs read from `conv/query` results, and
/// as `conv/query` filters see it.
enum ConversationDocument {
    /// Keys the server owns; clients cannot set them through attributes. `name` is set
    /// through attributes but stored apart.
    static let reservedKeys: Set<String> = [
        "objectId", "m", "c", "tr", "sys", "temp", "ttl", "unique", "uniqueId", "mu", "lm",
        "msg", "msg_from", "msg_mid", "msg_timestamp", "patch_timestamp", "bin",
        "createdAt", "updatedAt", "name", "ACL",
    ]

    /// - Parameters:
    ///   - lastMessage: shown as `msg`, `msg_from`, ... when given.
    ///   - compact: leaves out the member list, as the query flag asks.
    ///   - membersHidden: leaves out everything that names members (`m`, `mu`).
    static func encode(_ conversation: Conversation, lastMessage: Message? = nil, compact: Bool = false, membersHidden: Bool = false) -> JSONValue {
        var object = conversation.attributes
        object["objectId"] = .string(conversation.id)
        if !compact, !membersHidden { object["m"] = .array(conversation.members.map(JSONValue.string)) }
        object["c"] = .string(conversation.creator)
        if !membersHidden { object["mu"] = .array(conversation.mutedBy.map(JSONValue.string)) }
        object["createdAt"] = .string(ISODate.string(milliseconds: conversation.createdAt))
        object["updatedAt"] = .string(ISODate.string(milliseconds: conversation.updatedAt))
        if let name = conversation.name { object["name"] = .string(name) }
        if conversation.isTransient { object["tr"] = .bool(true) }
        // The SDKs make a system conversation a ServiceConversation (subscribe, unsubscribe).
        if conversation.kind == .system { object["sys"] = .bool(true) }
        if conversation.uniqueKey != nil {
            object["unique"] = .bool(true)
            object["uniqueId"] = .string(conversation.id)
        }
        markTemporary(conversation, in: &object)
        if let last = conversation.lastMessageAt { object["lm"] = ISODate.object(milliseconds: last) }
        if let message = lastMessage {
            switch message.content {
            case .text(let text):
                object["msg"] = .string(text)
            case .binary(let bytes):
                object["msg"] = .string(Data(bytes).base64EncodedString())
                object["bin"] = .bool(true)
            }
            object["msg_from"] = .string(message.from)
            object["msg_mid"] = .string(message.id)
            object["msg_timestamp"] = .int(message.timestamp)
            if let patched = message.patchTimestamp { object["patch_timestamp"] = .int(patched) }
        }
        return .object(object)
    }

    /// A temporary conversation's `temp`, and its `ttl`: seconds from its creation to its expiry.
    private static func markTemporary(_ conversation: Conversation, in object: inout [String: JSONValue]) {
        guard conversation.isTemporary else { return }
        object["temp"] = .bool(true)
        if let expiresAt = conversation.expiresAt {
            object["ttl"] = .int((expiresAt - conversation.createdAt) / 1000)
        }
    }
}

extension ConversationDocument {
    /// A conversation as LeanCloud stores it in `_Conversation`, as hook scripts' queries
    /// see it: each custom attribute its own field (as the SDK's `attr`), kinds as flags, and
    /// a temporary conversation's `temp` and `ttl` as `encode` gives them.
    static func storageObject(_ conversation: Conversation) -> JSONValue {
        var object = conversation.attributes
        object.merge([
            "objectId": .string(conversation.id),
            "m": .array(conversation.members.map(JSONValue.string)),
            "c": .string(conversation.creator),
            "mu": .array(conversation.mutedBy.map(JSONValue.string)),
            "tr": .bool(conversation.isTransient),
            "sys": .bool(conversation.kind == .system),
            "unique": .bool(conversation.uniqueKey != nil),
            "createdAt": .string(ISODate.string(milliseconds: conversation.createdAt)),
            "updatedAt": .string(ISODate.string(milliseconds: conversation.updatedAt)),
        ]) { _, server in server }
        if let name = conversation.name { object["name"] = .string(name) }
        if conversation.uniqueKey != nil { object["uniqueId"] = .string(conversation.id) }
        if let last = conversation.lastMessageAt { object["lm"] = ISODate.object(milliseconds: last) }
        markTemporary(conversation, in: &object)
        return .object(object)
    }
}
