import Crypto
import Foundation
import Synchronization
import SwitchboardJSON

/// The provider token APNs takes as `authorization: bearer …`: a JWT naming the key and the
/// team, signed ES256 with the team's `.p8` key. Apple accepts a token for an hour and
/// refuses one renewed more often than every 20 minutes, so one is kept for 50.
final class APNsAuthToken: Sendable {
    static let renewAfterSeconds: Int64 = 50 * 60

    private let key: P256.Signing.PrivateKey
    private let keyID: String
    let teamID: String
    private let current = Mutex<(token: String, issuedAt: Int64)?>(nil)

    /// - Parameter pem: the `.p8` file's text (a PKCS #8 P-256 key).
    init(pem: String, keyID: String, teamID: String) throws {
        key = try P256.Signing.PrivateKey(pemRepresentation: pem)
        self.keyID = keyID
        self.teamID = teamID
    }

    /// The token to send now; `now` in seconds since 1970.
    func token(now: Int64 = Int64(Date().timeIntervalSince1970)) throws -> String {
        try current.withLock { current in
            if let current, now - current.issuedAt < Self.renewAfterSeconds, now >= current.issuedAt { return current.token }
            let token = try sign(issuedAt: now)
            current = (token, now)
            return token
        }
    }

    /// Drops `token` after APNs called it expired (a clock off by more than the hour), so
    /// the next push signs a new one; a token already renewed is kept, so pushes refused
    /// together renew it once (APNs refuses renewals more often than every 20 minutes).
    func discard(_ token: String) {
        current.withLock { current in
            if current?.token == token { current = nil }
        }
    }

    private func sign(issuedAt: Int64) throws -> String {
        try CompactJWT.make(
            header: .object(["alg": .string("ES256"), "kid": .string(keyID)]),
            claims: .object(["iss": .string(teamID), "iat": .int(issuedAt)])
        ) { try key.signature(for: $0).rawRepresentation }
    }
}
