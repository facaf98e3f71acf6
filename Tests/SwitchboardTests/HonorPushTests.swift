import Foundation
import SwitchboardJSON
@testable import SwitchboardServer
import Testing

/// The `honor` provider against a loopback HTTP/2 stand-in playing both Honor's IAM token
/// endpoint and its push send endpoint, checked against Honor's documented API: the client
/// credentials form, the `timestamp` header, the camel-case message body.
@Suite struct HonorPushTests {
    private static let tokenPath = "/auth/token"
    private static let sendPath = "/api/v1/104436787/sendMessage"

    private func settings(_ standIn: VendorStandIn, appID: String = "104436787", clientID: String = "client-1", profile: String? = nil) -> HonorSettings {
        var settings = HonorSettings(appID: appID, clientID: clientID, clientSecret: "s3cret+/=&")
        settings.common.profile = profile
        settings.tokenURL = standIn.url.appendingPathComponent(Self.tokenPath)
        settings.common.useStandIn(port: standIn.server.port, trustRoots: standIn.trustRoots)
        return settings
    }

    private func start(
        respond: @escaping @Sendable (LoopbackHTTP2Server.Request) -> LoopbackHTTP2Server.Answer = { _ in .init(status: 200, body: HonorPushTests.success) },
        secondAccount: Bool = false, configure: @escaping @Sendable (inout HonorSettings) -> Void = { _ in }
    ) async throws -> (server: TestServer, honor: VendorStandIn) {
        let honor = try await VendorStandIn.start(tokenPath: Self.tokenPath, respond: respond)
        var first = settings(honor)
        configure(&first)
        let accounts = secondAccount ? [first, settings(honor, appID: "222", clientID: "second", profile: "intl")] : [first]
        let server = try await TestServer.start { config in
            config.honor = accounts
            config.pushTemplate = #"{"alert":"New message from ${fromClientId}","badge":3,"convId":"${convId}"}"#
        }
        return (server, honor)
    }

    static let success = #"{"code":200,"message":"success","data":{"sendResult":true,"requestId":"16563929349806812946000"}}"#

    static func answer(_ code: String, _ message: String) -> String {
        JSONValue.object(["code": .int(Int64(code) ?? 0), "message": .string(message)]).jsonString
    }

    @Test func anOfflineMembersHonorPhoneGetsOneNotificationAsHonorPushDescribesIt() async throws {
        let (server, honor) = try await start(configure: { $0.badgeClass = "com.example.chat.MainActivity" })
        try await server.installAndroidPhone("bob", vendor: "honor", registrationID: "bobs-honor-token")
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        _ = try await alice.sendText("hi", cid: cid)

        let send = try #require(try await honor.sends(1).first)
        #expect(send.method == "POST" && send.path == Self.sendPath)
        #expect(send.headers["authorization"] == "Bearer token-1")
        #expect(send.headers["content-type"] == "application/json; charset=UTF-8")
        let timestamp = try #require(send.headers["timestamp"].flatMap { Int64($0) })
        #expect(abs(timestamp - Int64(Date().timeIntervalSince1970 * 1000)) < 60_000)
        #expect(VendorStandIn.json(send) == [
            "token": ["bobs-honor-token"],
            "android": ["notification": [
                "title": "New message from alice", "body": "New message from alice", "importance": "NORMAL",
                "clickAction": ["type": 3], "badge": ["badgeClass": "com.example.chat.MainActivity", "setNum": 3],
            ]],
        ])

        try honor.expectClientCredentials(clientID: "client-1", clientSecret: "s3cret+/=&")
        #expect(try await server.pushOutcomes("honor", addingUpTo: 1) == ["sent": 1])
        #expect(honor.sends.count == 1 && honor.tokenRequests.count == 1)
        try await server.stop()
        try await honor.stop()
    }

    @Test func deadTokensAreRemovedExpiredAccessTokensFetchedAgainAndFlowControlWaitedOut() async throws {
        let stale = CallCounter(), busy = CallCounter()
        let (server, honor) = try await start(respond: { request in
            switch VendorStandIn.json(request)["token"]?.arrayValue?.first?.stringValue {
            case "gone":
                return .init(status: 200, body: Self.answer("80300007", "All the tokens are invalid"))
            case "stale" where stale.next() == 1:
                return .init(status: 401, body: Self.answer("80200003", "Access token expired"))
            case "busy" where busy.next() == 1:
                return .init(status: 503, headers: ["retry-after": "1"])
            default:
                return .init(status: 200, body: Self.success)
            }
        }, configure: { $0.common.firstRetry = .milliseconds(20) })
        for (client, token) in [("bob", "gone"), ("carol", "stale"), ("dave", "busy")] {
            try await server.installAndroidPhone(client, vendor: "honor", registrationID: token)
        }
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob", "carol", "dave"])
        _ = try await alice.sendText("one", cid: cid)
        func tokens(_ requests: [LoopbackHTTP2Server.Request]) -> [String] {
            requests.compactMap { VendorStandIn.json($0)["token"]?.arrayValue?.first?.stringValue }.sorted()
        }
        let first = try await honor.sends(5)
        #expect(tokens(first) == ["busy", "busy", "gone", "stale", "stale"])
        #expect(first.last { tokens([$0]) == ["stale"] }?.headers["authorization"] == "Bearer token-2")
        #expect(try await server.metric(#"switchboard_push_honor_total{outcome="removed_token"}"#, reaches: 1) == 1)
        #expect(try await server.metric(#"switchboard_push_honor_total{outcome="sent"}"#, reaches: 2) == 2)

        _ = try await alice.sendText("two", cid: cid)
        let all = try await honor.sends(7)
        // Every device's push counted: no send is still to come.
        #expect(try await server.pushOutcomes("honor", addingUpTo: 5) == ["sent": 4, "removed_token": 1])
        #expect(tokens(Array(all.dropFirst(5))) == ["busy", "stale"])
        #expect(honor.sends.count == 7)
        try await server.stop()
        try await honor.stop()
    }

    @Test func eachDeviceGoesWithTheAccountItsProfilePicks() async throws {
        let (server, honor) = try await start(secondAccount: true)
        for (client, profile) in [("bob", nil), ("carol", "intl"), ("erin", "beta")] as [(String, String?)] {
            try await server.installAndroidPhone(client, vendor: "honor", registrationID: "\(client)s-honor-token", profile: profile)
        }
        let alice = try await server.login("alice")
        _ = try await alice.sendText("hi", cid: try await alice.startConversation(members: ["bob", "carol", "erin"]))
        let sends = try await honor.sends(2)
        let byPath = Dictionary(grouping: sends, by: \.path).mapValues { $0.compactMap { VendorStandIn.json($0)["token"]?.arrayValue?.first?.stringValue } }
        #expect(byPath == [Self.sendPath: ["bobs-honor-token"], "/api/v1/222/sendMessage": ["carols-honor-token"]])
        #expect(Set(honor.tokenRequests.compactMap { FormFields.parse($0.body)["client_id"] }) == ["client-1", "second"])
        #expect(try await server.metric(#"switchboard_push_honor_total{outcome="sent"}"#, reaches: 2) == 2)
        #expect(try await server.metric(#"switchboard_push_honor_total{outcome="other_team"}"#) == 1)
        try await server.stop()
        try await honor.stop()
    }

    /// `silent` goes as a pass-through message; with an intent host the tap opens the app's
    /// activity with the push's own keys, as for Huawei.
    @Test func pushDataBecomesHonorMessages() {
        var settings = HonorSettings(appID: "1", clientID: "c", clientSecret: "s")
        #expect(HonorMessage.body(token: "t", payload: ["alert": "hi", "silent": true, "k": "v"], settings: settings)
            == ["token": ["t"], "data": .string(#"{"alert":"hi","k":"v","silent":true}"#)])
        settings.intentHost = "cn.leancloud.push"
        settings.importance = nil
        settings.common.defaultTitle = "Example Chat"
        #expect(HonorMessage.body(token: "t", payload: ["alert": "hi", "badge": "Increment", "k": "v"], settings: settings) == [
            "token": ["t"],
            "android": ["notification": [
                "title": "Example Chat", "body": "hi",
                "clickAction": ["type": 1, "intent": "intent://cn.leancloud.push/notify_detail#Intent;scheme=lcpushscheme;S.content=%7B%22k%22%3A%22v%22%7D;launchFlags=0x10000000;end"],
            ]],
        ])
    }

    @Test func theHonorConfigIsChecked() throws {
        for bad in [
            "push:\n  honor:\n    appId: \"1\"\n    clientId: c\n",
            "push:\n  honor:\n    appId: \"1\"\n    clientId: c\n    clientSecret: s\n    tokenUrl: http://iam.developer.honor.com/auth/token\n",
        ] {
            #expect(throws: ConfigError.self) { try ConfigText.load(bad) }
        }
        let config = try ConfigText.load("push:\n  honor:\n    appId: 104436787\n    clientId: c\n    clientSecret: s\n    intentHost: cn.leancloud.push\n")
        var expected = HonorSettings(appID: "104436787", clientID: "c", clientSecret: "s")
        expected.intentHost = "cn.leancloud.push"
        #expect(config.honor == [expected])
    }
}
