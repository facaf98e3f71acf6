/// Random identifiers in the shapes LeanCloud's SDKs are used to.
public enum Identifiers {
    /// 24 lowercase hex digits, like the object ids of LeanCloud conversations.
    public static func conversationID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<12).map { _ in
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// Temporary conversations carry LeanCloud's `_tmp:` prefix; the SDKs look for it.
    public static func temporaryConversationID() -> String {
        "_tmp:" + conversationID()
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    /// 22 URL-safe characters (132 random bits), like LeanCloud's message ids.
    public static func messageID() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<22).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }

    /// A session token handed out at login.
    public static func sessionToken() -> String {
        messageID() + messageID()
    }
}
