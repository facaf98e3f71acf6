import Foundation
import Testing

/// How the REST API reads what common HTTP clients send: query strings encoded as HTML
/// forms encode them, bodies where LeanCloud's own examples put them.
@Suite struct RESTRequestReadingTests {
    /// Python's urlencode, Java's URLEncoder, URLSearchParams and curl --data-urlencode
    /// send a space as `+`.
    @Test func aPlusInTheQueryStringIsASpace() async throws {
        let server = try await TestServer.start()
        _ = try await server.rest("POST", "/1.2/rtm/conversations", body: ["name": "x y", "m": ["alice"]])
        let (status, found) = try await server.rest("GET", "/1.2/rtm/conversations?where=%7B%22name%22%3A+%22x+y%22%7D")
        #expect(status == 200)
        #expect((found["results"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["x y"])
        try await server.stop()
    }

    /// LeanCloud's own example of listing a blacklist sends `client_ids` in a GET's body,
    /// and its DELETE examples send JSON with no Content-Type.
    @Test func aGETsBodyIsIgnoredAndADELETEsIsReadWithoutAContentType() async throws {
        let server = try await TestServer.start()
        let cid = try #require(try await server.rest("POST", "/1.2/rtm/conversations", body: ["m": ["alice", "bob"]]).1["objectId"] as? String)
        let path = "/1.2/rtm/conversations/\(cid)/blacklists"
        #expect(try await server.rest("POST", path, body: ["client_ids": ["eve"]]).0 == 200)

        let (listed, data) = try server.rawREST("GET", path, json: #"{"client_ids":["eve"]}"#)
        #expect(listed == 200)
        #expect((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["client_ids"] as? [String] == ["eve"])
        let (removed, _) = try await server.restExchange("DELETE", path, body: ["client_ids": ["eve"]], contentType: false)
        #expect(removed.statusCode == 200)
        #expect(try await server.rest("GET", path).1["client_ids"] as? [String] == [])
        try await server.stop()
    }
}
