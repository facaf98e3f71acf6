import Foundation
import Testing

/// Blacklists through the REST API: a blocked client is not added or subscribed silently.
@Suite struct BlacklistRESTTests {
    @Test func aBlockedClientIsNotSubscribedToASystemConversation() async throws {
        let server = try await TestServer.start()
        let news = try #require(try await server.rest("POST", "/1.2/rtm/service-conversations", body: ["name": "news"]).1["objectId"] as? String)
        let base = "/1.2/rtm/service-conversations/\(news)"
        #expect(try await server.rest("POST", base + "/blacklists", body: ["client_ids": ["eve"]]).0 == 200)

        let (status, refused) = try await server.rest("POST", base + "/subscribers", body: ["client_id": "eve"])
        #expect(status == 400 && refused["code"] as? Int == 4548)
        #expect(try await server.rest("GET", base + "/subscribers/count").1["count"] as? Int == 0)
        try await server.stop()
    }

    @Test func membersAddedByRESTReportTheBlockedOnesLeftOut() async throws {
        let server = try await TestServer.start()
        let cid = try #require(try await server.rest("POST", "/1.2/rtm/conversations", body: ["m": ["alice"]]).1["objectId"] as? String)
        let base = "/1.2/rtm/conversations/\(cid)"
        #expect(try await server.rest("POST", base + "/blacklists", body: ["client_ids": ["eve"]]).0 == 200)

        let (status, answer) = try await server.rest("POST", base + "/members", body: ["client_ids": ["bob", "eve"]])
        #expect(status == 200 && answer["objectId"] as? String == cid && answer["updatedAt"] is String)
        let failed = answer["failedPids"] as? [[String: Any]] ?? []
        #expect(failed.count == 1 && failed.first?["pids"] as? [String] == ["eve"] && failed.first?["code"] as? Int == 4548)
        #expect(failed.first?["error"] is String)
        #expect(Set(try await server.rest("GET", base + "/members").1["result"] as? [String] ?? []) == ["alice", "bob"])
        // Nobody left out: the answer is LeanCloud's documented one.
        #expect(try await server.rest("POST", base + "/members", body: ["client_ids": ["carol"]]).1["failedPids"] == nil)
        try await server.stop()
    }
}
