import Crypto
import Foundation

/// LeanCloud's request signatures: HMAC-SHA1 over a colon-joined string, keyed with the
/// app's master key, sent as a lowercase hex digest.
public struct Signature: Sendable {
    public let appID: String
    public let masterKey: String

    public init(appID: String, masterKey: String) {
        self.appID = appID
        self.masterKey = masterKey
    }

    public func login(clientID: String, timestamp: Int64, nonce: String) -> String {
        sign([appID, clientID, "", String(timestamp), nonce])
    }

    public func startConversation(clientID: String, members: [String], timestamp: Int64, nonce: String) -> String {
        sign([appID, clientID, members.sorted().joined(separator: ":"), String(timestamp), nonce])
    }

    public enum MemberAction: String, Sendable {
        case invite
        case kick
    }

    public func changeMembers(
        clientID: String, conversationID: String, members: [String], timestamp: Int64, nonce: String, action: MemberAction
    ) -> String {
        sign([appID, clientID, conversationID, members.sorted().joined(separator: ":"), String(timestamp), nonce, action.rawValue])
    }

    /// Compares in constant time so a forger learns nothing from response times.
    public static func matches(_ expected: String, _ given: String) -> Bool {
        let a = Array(expected.lowercased().utf8)
        let b = Array(given.lowercased().utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private func sign(_ parts: [String]) -> String {
        let key = SymmetricKey(data: Data(masterKey.utf8))
        let mac = HMAC<Insecure.SHA1>.authenticationCode(for: Data(parts.joined(separator: ":").utf8), using: key)
        return mac.map { String(format: "%02x", $0) }.joined()
    }
}
