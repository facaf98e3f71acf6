import Foundation
import Testing

/// Blacklists through the REST API: a blocked client is not added or subscribed silently,
/// and a client's own blacklist of conversations (`/1.2/rtm/clients/{client_id}/blacklists`).
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

    /// A client blacklisting a conversation is the conversation's blacklist naming it: it
    /// cannot be added there, and the conversations it blocked are the ones whose
    /// blacklist has it.
    @Test func aClientsBlacklistOfConversations() async throws {
        let server = try await TestServer.start()
        var ids: [String] = []
        for name in ["one", "two", "three"] {
            ids.append(try #require(try await server.rest("POST", "/1.2/rtm/conversations", body: ["name": name, "m": ["alice"]]).1["objectId"] as? String))
        }
        let path = "/1.2/rtm/clients/eve/blacklists"
        for id in ids {
            let (status, answer) = try await server.rest("POST", path, body: ["conv_id": id])
            #expect(status == 200 && answer.isEmpty)
        }
        #expect(try await server.rest("GET", "/1.2/rtm/conversations/\(ids[0])/blacklists").1["client_ids"] as? [String] == ["eve"])
        let failed = try await server.rest("POST", "/1.2/rtm/conversations/\(ids[0])/members", body: ["client_ids": ["eve"]]).1["failedPids"] as? [[String: Any]]
        #expect(failed?.first?["code"] as? Int == 4548)

        let (listed, firstPage) = try await server.rest("GET", path + "?limit=2")
        #expect(listed == 200 && (firstPage["conv_ids"] as? [String])?.count == 2 && firstPage["next"] as? String == "2")
        let secondPage = try await server.rest("GET", path + "?limit=2&next=2").1
        #expect(secondPage["next"] == nil)
        #expect(Set((firstPage["conv_ids"] as? [String] ?? []) + (secondPage["conv_ids"] as? [String] ?? [])) == Set(ids))

        #expect(try await server.rest("DELETE", path, body: ["conv_id": ids[0]]).0 == 200)
        #expect(Set(try await server.rest("GET", path).1["conv_ids"] as? [String] ?? []) == Set(ids.dropFirst()))
        #expect(try await server.rest("POST", "/1.2/rtm/conversations/\(ids[0])/members", body: ["client_ids": ["eve"]]).1["failedPids"] == nil)
        #expect(try await server.rest("POST", path, body: ["conv_id": "nope"]).0 == 404)
        try await server.stop()
    }
}
