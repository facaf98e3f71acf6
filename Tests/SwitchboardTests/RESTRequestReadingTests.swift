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
}
