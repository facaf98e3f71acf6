import AsyncHTTPClient
import CryptoExtras
import Foundation
import NIOCore
import SwitchboardJSON

/// How FCM's OAuth 2 access token (`authorization: Bearer …`) is got: from the service
/// account's `token_uri`, with an RS256-signed assertion (Google's JWT bearer grant). Kept
/// in a `PushAccessToken` like every push service's.
struct FCMTokenGrant: Sendable {
    static let scope = "https://www.googleapis.com/auth/firebase.messaging"

    let account: FCMServiceAccount
    private let key: _RSA.Signing.PrivateKey
    let client: HTTPClient

    init(account: FCMServiceAccount, client: HTTPClient) throws {
        self.account = account
        key = try _RSA.Signing.PrivateKey(pemRepresentation: account.privateKey)
        self.client = client
    }

    /// A cache of this grant's token, for the provider to send with.
    func accessToken() -> PushAccessToken {
        PushAccessToken { try await fetch() }
    }

    /// The signed JWT that asks for a token; `now` in seconds since 1970.
    func assertion(now: Int64) throws -> String {
        var header: [String: JSONValue] = ["alg": "RS256", "typ": "JWT"]
        if let keyID = account.privateKeyID { header["kid"] = .string(keyID) }
        return try CompactJWT.make(
            header: .object(header),
            claims: [
                "iss": .string(account.clientEmail), "scope": .string(Self.scope), "aud": .string(account.tokenURI.absoluteString),
                "iat": .int(now), "exp": .int(now + 3600),
            ]
        ) { try key.signature(for: $0, padding: .insecurePKCS1v1_5).rawRepresentation }
    }

    func fetch() async throws -> PushAccessToken.Issued {
        var request = HTTPClientRequest(url: account.tokenURI.absoluteString)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/x-www-form-urlencoded")
        let assertion = try assertion(now: Int64(Date().timeIntervalSince1970))
        request.body = .bytes(ByteBuffer(string: "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"))
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = String(buffer: try await response.body.collect(upTo: 64 * 1024))
        let answer = try? JSONValue(parsing: body)
        guard response.status.code == 200, let token = answer?["access_token"]?.stringValue, let lifetime = answer?["expires_in"]?.int64Value else {
            throw PushAuthRefused(service: "FCM", status: Int(response.status.code), body: body)
        }
        return PushAccessToken.Issued(token: token, expiresIn: .seconds(lifetime))
    }
}
