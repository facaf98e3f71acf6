import Foundation
import Testing

/// "A failed response always contains code and error" (LeanCloud's REST guide): so do the
/// answers to a path no route has, a method a path does not take, and a body too large.
@Suite struct RESTErrorAnswerTests {
    @Test func anUnknownPathIs404AndAnUnknownMethod405WithAllowBothInJSON() async throws {
        let server = try await TestServer.start()
        for path in ["/1.2/rtm/not-a-route", "/nothing/here", "/1.2/rtm/conversations/x/y/z"] {
            let (response, data) = try await server.restExchange("GET", path)
            let body = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            #expect(response.statusCode == 404 && body?["code"] as? Int == 404 && body?["error"] is String, "\(path)")
        }
        let (wrong, data) = try await server.restExchange("PATCH", "/1.2/rtm/conversations/some-id")
        let body = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect(wrong.statusCode == 405 && body?["code"] as? Int == 405 && body?["error"] as? String == "Method Not Allowed")
        #expect(wrong.value(forHTTPHeaderField: "Allow") == "DELETE, GET, PUT")
        let health = try await server.restExchange("POST", "/health").0
        #expect(health.statusCode == 405 && health.value(forHTTPHeaderField: "Allow") == "GET")
        try await server.stop()
    }

    @Test func aBodyOverTheLimitIs413() async throws {
        let server = try await TestServer.start()
        let cid = try #require(try await server.rest("POST", "/1.2/rtm/conversations", body: ["m": ["alice"]]).1["objectId"] as? String)
        let text = String(repeating: "x", count: 70_000)
        let (status, answer) = try await server.rest("POST", "/1.2/rtm/conversations/\(cid)/messages", raw: #"{"from_client":"alice","message":"\#(text)"}"#)
        #expect(status == 413 && answer["code"] as? Int == 413 && answer["error"] as? String == "Payload Too Large.")
        try await server.stop()
    }
}
