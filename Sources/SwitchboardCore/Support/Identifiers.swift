import Crypto
import Foundation

/// Random identifiers in the shapes LeanCloud's SDKs are used to.
public enum Identifiers {
    /// 24 lowercase hex digits, like the object ids of LeanCloud conversations.
    public static func conversationID() -> String {
        objectID()
    }

    /// 24 lowercase hex digits, the shape of LeanCloud's object ids.
    public static func objectID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<12).map { _ in
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// Temporary conversations carry LeanCloud's `_tmp:` prefix; the SDKs look for it.
    public static let temporaryPrefix = "_tmp:"

    public static func temporaryConversationID() -> String {
        temporaryPrefix + conversationID()
    }

    /// The object id of a member's `_ConversationMemberInfo` row: the same for the same
    /// conversation and member, in the shape of LeanCloud's object ids.
    public static func memberInfoID(conversationID: String, clientID: String) -> String {
        SHA256.hash(data: Data("\(conversationID)\n\(clientID)".utf8)).prefix(12).map { String(format: "%02x", $0) }.joined()
    }

    /// The 64 characters of LeanCloud's message ids, URL-safe.
    static let urlSafeAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    private static let alphabet = Array(urlSafeAlphabet)

    private static let messageIDs = MessageIDGenerator()

    /// 22 URL-safe characters, like LeanCloud's message ids; see `MessageIDGenerator`.
    public static func messageID() -> String {
        messageIDs.next()
    }

    /// 20 letters and digits (119 bits) for a client that logs in without an id, as
    /// LeanCloud gives one.
    public static func anonymousClientID() -> String {
        random(20, from: alphabet.dropLast(2))
    }

    private static func random(_ count: Int, from characters: ArraySlice<Character>) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<count).map { _ in characters.randomElement(using: &generator)! })
    }
}
