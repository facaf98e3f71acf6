import AsyncHTTPClient
import CryptoExtras
import Foundation
import NIOCore
import SwitchboardJSON

/// The OAuth 2 access token FCM takes as `authorization: Bearer …`, got from the service
/// account's `token_uri` with an RS256-signed assertion and kept until a few minutes before
/// it expires. Pushes that need one while it is being fetched wait for that fetch.
actor FCMAccessToken {
    static let scope = "https://www.googleapis.com/auth/firebase.messaging"
    /// Renewed this long before Google says it expires.
    static let margin: Duration = .seconds(300)

    private let account: FCMServiceAccount
    private let key: _RSA.Signing.PrivateKey
    private let client: HTTPClient
    private var current: (token: String, renewAt: ContinuousClock.Instant)?
    private var fetching: Task<(token: String, renewAt: ContinuousClock.Instant), any Error>?

    init(account: FCMServiceAccount, client: HTTPClient) throws {
        self.account = account
        key = try _RSA.Signing.PrivateKey(pemRepresentation: account.privateKey)
        self.client = client
    }

    func token() async throws -> String {
        if let current, ContinuousClock.now < current.renewAt { return current.token }
        let fetch = fetching ?? Task { try await self.fetch() }
        fetching = fetch
        defer { fetching = nil }
        let fetched = try await fetch.value
        current = fetched
        return fetched.token
    }

    /// Forgets `token` after FCM refused it (401), so that the next push fetches another.
    func discard(_ token: String) {
        if current?.token == token { current = nil }
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

    private func fetch() async throws -> (token: String, renewAt: ContinuousClock.Instant) {
        let started = ContinuousClock.now
        var request = HTTPClientRequest(url: account.tokenURI.absoluteString)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/x-www-form-urlencoded")
        let assertion = try assertion(now: Int64(Date().timeIntervalSince1970))
        request.body = .bytes(ByteBuffer(string: "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"))
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = String(buffer: try await response.body.collect(upTo: 64 * 1024))
        let answer = try? JSONValue(parsing: body)
        guard response.status.code == 200, let token = answer?["access_token"]?.stringValue, let lifetime = answer?["expires_in"]?.int64Value else {
            throw TokenRefused(status: Int(response.status.code), body: String(body.prefix(500)))
        }
        return (token, started + max(.seconds(lifetime) - Self.margin, .seconds(lifetime) / 2))
    }

    struct TokenRefused: Error, CustomStringConvertible {
        let status: Int
        let body: String
        var description: String { "the token endpoint answered HTTP \(status): \(body)" }
    }
}
