import Foundation
import Testing

/// Each REST path names a kind of conversation (`conversations`: one-to-one and group,
/// `chatrooms`: chat rooms, `service-conversations`: system conversations); a conversation
/// of another kind is not there, as an unknown id is not.
@Suite struct ConversationKindRESTTests {
    @Test func aConversationOfAnotherKindIsNotFoundUnderAPathOfAnotherKind() async throws {
        let server = try await TestServer.start()
        let group = try #require(try await server.rest("POST", "/1.2/rtm/conversations", body: ["name": "group", "m": ["alice", "bob"]]).1["objectId"] as? String)
        let room = try #require(try await server.rest("POST", "/1.2/rtm/chatrooms", body: ["name": "room"]).1["objectId"] as? String)
        let news = try #require(try await server.rest("POST", "/1.2/rtm/service-conversations", body: ["name": "news"]).1["objectId"] as? String)
        let unknown = try await server.rest("GET", "/1.2/rtm/chatrooms/nope")
        #expect(unknown.0 == 404 && unknown.1["code"] as? Int == 4303)

        for (path, id) in [("chatrooms", group), ("service-conversations", group), ("conversations", room), ("conversations", news), ("chatrooms", news)] {
            let base = "/1.2/rtm/\(path)/\(id)"
            for (method, suffix, body) in [
                ("GET", "", nil), ("PUT", "", ["name": "renamed"]), ("DELETE", "", nil),
                ("POST", "/blacklists", ["client_ids": ["eve"]]), ("GET", "/member-infos", nil),
            ] as [(String, String, [String: Any]?)] {
                if path == "service-conversations", suffix == "/member-infos" { continue }
                let (status, answer) = try await server.rest(method, base + suffix, body: body)
                #expect(status == unknown.0 && answer["code"] as? Int == 4303, "\(method) \(path)/\(id)\(suffix) answered \(status) \(answer)")
            }
        }
        #expect(try await server.rest("GET", "/1.2/rtm/conversations/\(group)").1["name"] as? String == "group")
        #expect(try await server.rest("GET", "/1.2/rtm/chatrooms/\(room)").1["name"] as? String == "room")
        #expect(try await server.rest("GET", "/1.2/rtm/service-conversations/\(news)").1["name"] as? String == "news")
        #expect(try await server.rest("GET", "/1.2/rtm/conversations/\(group)/blacklists").1["client_ids"] as? [String] == [])
        try await server.stop()
    }
}
