import Crypto
import Foundation

/// Session tokens (`st`) handed out at login, so an SDK can reopen a session after a
/// reconnect without asking the app for a new signature.
///
/// A token is its expiry and an HMAC-SHA256 of the client id and that expiry, keyed from
/// the app's master key: the server keeps nothing per login (a server that remembered every
/// token for a day grew with every login), and tokens stay valid across restarts.
public struct SessionTokens: Sendable {
    public static let lifetimeSeconds: Int32 = 86_400

    private let key: SymmetricKey

    public init(masterKey: String) {
        key = SymmetricKey(data: SHA256.hash(data: Data(("switchboard session token:" + masterKey).utf8)))
    }

    public func issue(for clientID: String, now: Int64) -> String {
        let expiresAt = now + Int64(Self.lifetimeSeconds) * 1000
        return "\(expiresAt)." + Data(mac(clientID, expiresAt)).base64EncodedString()
    }

    public func isValid(_ token: String, for clientID: String, now: Int64) -> Bool {
        let parts = token.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, let expiresAt = Int64(parts[0]), expiresAt > now,
              let given = Data(base64Encoded: String(parts[1]))
        else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(given, authenticating: Self.message(clientID, expiresAt), using: key)
    }

    private func mac(_ clientID: String, _ expiresAt: Int64) -> HashedAuthenticationCode<SHA256> {
        HMAC<SHA256>.authenticationCode(for: Self.message(clientID, expiresAt), using: key)
    }

    private static func message(_ clientID: String, _ expiresAt: Int64) -> Data {
        Data("\(expiresAt)\n\(clientID)".utf8)
    }
}
