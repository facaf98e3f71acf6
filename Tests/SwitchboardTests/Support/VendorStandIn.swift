import Foundation
import SwitchboardJSON
import Testing

/// A loopback HTTP/2 stand-in for a maker's push service that takes OAuth client
/// credentials (Huawei, Honor): its token endpoint hands out `token-1`, `token-2`, … and
/// every other request is a send, answered by `respond`.
struct VendorStandIn {
    let server: LoopbackHTTP2Server
    let trustRoots: String
    let tokenPath: String

    static func start(
        tokenPath: String, tokenLifetime: Int = 3600,
        respond: @escaping @Sendable (LoopbackHTTP2Server.Request) -> LoopbackHTTP2Server.Answer = { _ in .init(status: 200) }
    ) async throws -> VendorStandIn {
        let tokens = CallCounter()
        let server = try await LoopbackHTTP2Server.start { request in
            guard request.path == tokenPath else { return respond(request) }
            return .init(status: 200, body: #"{"access_token":"token-\#(tokens.next())","expires_in":\#(tokenLifetime),"token_type":"Bearer"}"#)
        }
        return VendorStandIn(server: server, trustRoots: try TestCertificate.writeCertificate(in: TestServer.temporaryDirectory()), tokenPath: tokenPath)
    }

    var url: URL { URL(string: "https://127.0.0.1:\(server.port)")! }

    var tokenRequests: [LoopbackHTTP2Server.Request] { server.requests.filter { $0.path == tokenPath } }
    var sends: [LoopbackHTTP2Server.Request] { server.requests.filter { $0.path != tokenPath } }

    /// The first access token was asked for by OAuth's client credentials grant, a form with
    /// this client's id and secret.
    func expectClientCredentials(clientID: String, clientSecret: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let tokenRequest = try #require(tokenRequests.first, sourceLocation: sourceLocation)
        #expect(tokenRequest.method == "POST" && tokenRequest.headers["content-type"] == "application/x-www-form-urlencoded", sourceLocation: sourceLocation)
        #expect(
            FormFields.parse(tokenRequest.body) == ["grant_type": "client_credentials", "client_id": clientID, "client_secret": clientSecret],
            sourceLocation: sourceLocation
        )
    }

    /// Waits until `count` sends have come; fails after ten seconds.
    func sends(_ count: Int) async throws -> [LoopbackHTTP2Server.Request] {
        try await server.requests(until: { [tokenPath] requests in requests.count { $0.path != tokenPath } >= count }, "\(count) sends")
            .filter { $0.path != tokenPath }
    }

    /// The body of a send, parsed.
    static func json(_ request: LoopbackHTTP2Server.Request) -> JSONValue {
        (try? JSONValue(parsing: request.body)) ?? .null
    }

    func stop() async throws {
        try await server.stop()
    }
}
