import AsyncHTTPClient
import Foundation
import NIOCore
import SwitchboardJSON

/// OAuth 2's client credentials grant (RFC 6749, section 4.4) as Huawei's and Honor's push
/// services take it: a form-encoded `grant_type=client_credentials`, `client_id` and
/// `client_secret` POSTed to the token endpoint, answered with `access_token` and
/// `expires_in` (seconds), kept as `PushAccessToken.Issued(token:expiresIn:)` says.
struct OAuthClientCredentials: Sendable {
    /// For errors: `Huawei`, `Honor`.
    let service: String
    let tokenURL: URL
    let clientID: String
    let clientSecret: String
    let client: HTTPClient

    /// A cache of this grant's token, for a provider to send with.
    func accessToken() -> PushAccessToken {
        PushAccessToken { try await fetch() }
    }

    func fetch() async throws -> PushAccessToken.Issued {
        var request = HTTPClientRequest(url: tokenURL.absoluteString)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: FormURLEncoded.body([
            ("grant_type", "client_credentials"), ("client_id", clientID), ("client_secret", clientSecret),
        ])))
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = String(buffer: try await response.body.collect(upTo: 64 * 1024))
        let answer = try? JSONValue(parsing: body)
        // Huawei's older references give `expires_in` as a string of digits.
        let lifetime = answer?["expires_in"].flatMap { $0.int64Value ?? $0.stringValue.flatMap { Int64($0) } }
        guard response.status.code == 200, let token = answer?["access_token"]?.stringValue, !token.isEmpty, let lifetime, lifetime > 0 else {
            throw PushAuthRefused(service: service, status: Int(response.status.code), body: body)
        }
        return PushAccessToken.Issued(token: token, expiresIn: .seconds(lifetime))
    }
}
