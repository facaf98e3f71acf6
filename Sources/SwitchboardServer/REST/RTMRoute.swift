import Hummingbird
import SwitchboardJSON

/// `GET /v1/route`: where the WebSocket server is, as LeanCloud's RTM router answers an SDK
/// configured with only `server` (the API address) before it connects.
///
/// The address is `publicURL` from the config when set (behind a proxy that changes host or
/// scheme), otherwise the host the request came to, `wss` when a proxy says it was HTTPS.
struct RTMRoute {
    let appID: String
    let publicURL: String?

    /// LeanCloud's routers let an SDK cache the answer for an hour.
    static let ttlSeconds: Int64 = 3600

    func respond(to request: Request) -> Response {
        if let asked = QueryParameters(request)["appId"], !asked.isEmpty, asked != appID {
            return RESTResponse.error(.notFound, code: 404, "no app \(asked) on this server")
        }
        guard let url = webSocketURL(for: request) else {
            return RESTResponse.error(.badRequest, code: 400, "no Host header to name the server by; set server.publicURL")
        }
        return RESTResponse.json([
            "groupId": "g0",
            "server": .string(url),
            "secondary": .string(url),
            "ttl": .int(Self.ttlSeconds),
        ])
    }

    private func webSocketURL(for request: Request) -> String? {
        if let publicURL {
            return publicURL.replacingPrefix("https://", with: "wss://").replacingPrefix("http://", with: "ws://")
        }
        guard let host = request.head.authority, !host.isEmpty else { return nil }
        let secure = request.header("X-Forwarded-Proto")?.lowercased() == "https"
        return (secure ? "wss://" : "ws://") + host
    }
}

private extension String {
    func replacingPrefix(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}
