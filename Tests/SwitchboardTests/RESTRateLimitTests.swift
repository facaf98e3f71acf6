import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// LeanCloud's per-minute and per-day limits of the IM REST API: past one, 429 with
/// `Retry-After` until the window ends. No test waits for a window: the limits are small.
@Suite struct RESTRateLimitTests {
    @Test func sendsPastTheMinutesLimitAreRefusedWith429AndCounted() async throws {
        let server = try await TestServer.start { $0.restRateLimits.messagesPerMinute = 3 }
        let cid = try #require(try await server.rest("POST", "/1.2/rtm/conversations", body: ["m": ["alice"]]).1["objectId"] as? String)
        let send = { (path: String) in try await server.restExchange("POST", path, body: ["from_client": "alice", "message": "hi"]) }
        // Three fit in one minute, or in two if one ends meanwhile; of the next four, one
        // comes past three in a minute whatever the clock does (3 + 3 < 7).
        for _ in 1...3 { #expect(try await send("/1.2/rtm/conversations/\(cid)/messages").0.statusCode == 200) }
        var refused: (HTTPURLResponse, Data)?
        for _ in 1...4 where refused == nil {
            let answer = try await send("/1.2/rtm/conversations/\(cid)/messages")
            if answer.0.statusCode != 200 { refused = answer }
        }
        let (response, data) = try #require(refused)
        let body = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect(response.statusCode == 429 && body?["code"] as? Int == 429 && body?["error"] as? String == "Too many requests.")
        #expect((1...60).contains(Int(response.value(forHTTPHeaderField: "Retry-After") ?? "") ?? 0))
        // Only the sends' class is limited: reading history goes on.
        #expect(try await server.restData("GET", "/1.2/rtm/conversations/\(cid)/messages").0 == 200)
        #expect(try await server.metric(#"switchboard_rest_rate_limited_total{class="messages"}"#) >= 1)
        try await server.stop()
    }

    @Test func broadcastsPastTheDaysLimitAreRefused() async throws {
        let server = try await TestServer.start {
            $0.restRateLimits.broadcastsPerMinute = 0
            $0.restRateLimits.broadcastsPerDay = 3
            $0.restRateLimits.subscriberBroadcastsPerDay = 3
        }
        let news = try #require(try await server.rest("POST", "/1.2/rtm/service-conversations", body: ["name": "news"]).1["objectId"] as? String)
        for path in ["/1.2/rtm/broadcasts", "/1.2/rtm/service-conversations/\(news)/broadcasts"] {
            var body: [String: Any] = ["from_client": "newsroom", "message": "extra!"]
            if path == "/1.2/rtm/broadcasts" { body["conv_id"] = news }
            for _ in 1...3 { #expect(try await server.rest("POST", path, body: body).0 == 200, "\(path)") }
            let (response, _) = try await server.restExchange("POST", path, body: body)
            #expect(response.statusCode == 429, "\(path)")
            #expect((1...86_400).contains(Int(response.value(forHTTPHeaderField: "Retry-After") ?? "") ?? 0))
        }
        try await server.stop()
    }
}
