import Foundation
import Testing

/// Who subscribes to a system conversation and since when, from either side, as the app's
/// server reads it over REST.
@Suite struct SubscriptionRESTTests {
    @Test func subscribersAndSubscriptionsAreListedWithWhenTheySubscribed() async throws {
        let clock = TestClock()
        let server = try await TestServer.start(clock: clock)
        let news = try await systemConversation("news", on: server)
        let sports = try await systemConversation("sports", on: server)
        for (client, conversation) in [("bob", news), ("carol", news), ("alice", news), ("bob", sports)] {
            #expect(try await server.rest("POST", "/1.2/rtm/service-conversations/\(conversation)/subscribers", body: ["client_id": client]).0 == 200)
            clock.advance(by: .milliseconds(5))
        }
        // A change to the conversation keeps everyone's subscription time.
        #expect(try await server.rest("PUT", "/1.2/rtm/service-conversations/\(news)", body: ["name": "headlines"]).0 == 200)

        let (status, _, firstPage) = try await server.restArray("/1.2/rtm/service-conversations/\(news)/subscribers?limit=2")
        #expect(status == 200 && firstPage.map { $0["subscriber"] as? String } == ["alice", "bob"])
        #expect(firstPage.allSatisfy { $0["conv_id"] as? String == news })
        let (_, _, rest) = try await server.restArray("/1.2/rtm/service-conversations/\(news)/subscribers?limit=2&client_id=bob")
        #expect(rest.map { $0["subscriber"] as? String } == ["carol"])
        let times = Dictionary(uniqueKeysWithValues: (firstPage + rest).map { ($0["subscriber"] as! String, $0["timestamp"] as! Int) })
        #expect(times["bob"]! < times["carol"]! && times["carol"]! < times["alice"]!)

        let path = "/1.2/rtm/clients/bob/service-conversations"
        #expect(try await server.restArray(path).2.map { $0["conv_id"] as? String } == [news, sports])
        #expect(try await server.restArray(path + "?direction=old").2.map { $0["conv_id"] as? String } == [sports, news])
        #expect(try await server.restArray(path + "?conv_id=\(news)&timestamp=\(times["bob"]!)").2.map { $0["conv_id"] as? String } == [sports])
        #expect(try await server.restArray(path + "?limit=1").2.map { $0["subscriber"] as? String } == ["bob"])

        // Subscribing again starts a new subscription.
        _ = try await server.rest("DELETE", "/1.2/rtm/service-conversations/\(news)/subscribers/bob")
        _ = try await server.rest("POST", "/1.2/rtm/service-conversations/\(news)/subscribers", body: ["client_id": "bob"])
        #expect(try await server.restArray(path).2.map { $0["conv_id"] as? String } == [sports, news])
        try await server.stop()
    }

    @Test func clientsSubscribingAtTheSameMomentAreAllKept() async throws {
        let server = try await TestServer.start()
        let news = try await systemConversation("news", on: server)
        let clients = (0..<20).map { "reader\($0)" }
        try await withThrowingTaskGroup(of: Int.self) { group in
            for client in clients {
                group.addTask { try await server.rest("POST", "/1.2/rtm/service-conversations/\(news)/subscribers", body: ["client_id": client]).0 }
            }
            for try await status in group { #expect(status == 200) }
        }
        #expect(try await server.rest("GET", "/1.2/rtm/service-conversations/\(news)/subscribers/count").1["count"] as? Int == clients.count)
        try await server.stop()
    }

    @Test func badPagesAndUnknownConversationsAreRefused() async throws {
        let server = try await TestServer.start()
        let news = try await systemConversation("news", on: server)
        #expect(try await server.rest("GET", "/1.2/rtm/service-conversations/nope/subscribers").0 == 404)
        let (group, _) = try await server.rest("POST", "/1.2/rtm/conversations", body: ["name": "group", "m": ["alice"]])
        #expect(group == 200)
        #expect(try await server.rest("GET", "/1.2/rtm/clients/bob/service-conversations?conv_id=\(news)").0 == 400)
        #expect(try await server.rest("GET", "/1.2/rtm/clients/bob/service-conversations?direction=sideways").0 == 400)
        #expect(try await server.rest("GET", "/1.2/rtm/service-conversations/\(news)/subscribers?limit=x").0 == 400)
        // Only system conversations are subscriptions.
        #expect(try await server.restArray("/1.2/rtm/clients/alice/service-conversations").2.isEmpty)
        try await server.stop()
    }

    private func systemConversation(_ name: String, on server: TestServer) async throws -> String {
        let (status, created) = try await server.rest("POST", "/1.2/rtm/service-conversations", body: ["name": name])
        #expect(status == 200)
        return try #require(created["objectId"] as? String)
    }
}
