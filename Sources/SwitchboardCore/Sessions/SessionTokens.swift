import Crypto
import Foundation

/// Session tokens (`st`) handed out at login, so an SDK can reopen a session after a
/// reconnect without asking the app for a new signature.
///
/// A token is its expiry, an HMAC-SHA256 of the client id, that expiry and the device it was
/// issued to, keyed from the app's master key, and that device: the server keeps nothing per
/// login (a server that remembered every token for a day grew with every login), tokens stay
/// valid across restarts, and a reconnect, which names no device (the SDKs send `deviceId`
/// and `tag` at the first login only), goes back to its device's queue and notices.
public struct SessionTokens: Sendable {
    public static let lifetimeSeconds: Int32 = 86_400

    private let key: SymmetricKey

    public init(masterKey: String) {
        key = SymmetricKey(data: SHA256.hash(data: Data(("switchboard session token:" + masterKey).utf8)))
    }

    /// `<expiry>.<mac>`, followed by `.<device key in base64>` for a named device.
    public func issue(for clientID: String, device: String = "", now: Int64) -> String {
        let expiresAt = now + Int64(Self.lifetimeSeconds) * 1000
        let token = "\(expiresAt)." + Data(mac(clientID, expiresAt, device)).base64EncodedString()
        return device.isEmpty ? token : token + "." + Data(device.utf8).base64EncodedString()
    }

    public func isValid(_ token: String, for clientID: String, now: Int64) -> Bool {
        device(of: token, for: clientID, now: now) != nil
    }

    /// The key of the device the token was issued to ("" for the client's default device),
    /// or nil when the token is not good for `clientID` at `now`.
    public func device(of token: String, for clientID: String, now: Int64) -> String? {
        let parts = token.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, let expiresAt = Int64(parts[0]), expiresAt > now,
              let given = Data(base64Encoded: String(parts[1]))
        else { return nil }
        var device = ""
        if parts.count == 3 {
            guard let bytes = Data(base64Encoded: String(parts[2])), let named = String(data: bytes, encoding: .utf8), !named.isEmpty else { return nil }
            device = named
        }
        let good = HMAC<SHA256>.isValidAuthenticationCode(given, authenticating: Self.message(clientID, expiresAt, device), using: key)
        return good ? device : nil
    }

    private func mac(_ clientID: String, _ expiresAt: Int64, _ device: String) -> HashedAuthenticationCode<SHA256> {
        HMAC<SHA256>.authenticationCode(for: Self.message(clientID, expiresAt, device), using: key)
    }

    /// The default device's message is what tokens were before devices were in them, so
    /// those still open sessions.
    private static func message(_ clientID: String, _ expiresAt: Int64, _ device: String) -> Data {
        Data((device.isEmpty ? "\(expiresAt)\n\(clientID)" : "\(expiresAt)\n\(clientID)\n\(device)").utf8)
    }
}
