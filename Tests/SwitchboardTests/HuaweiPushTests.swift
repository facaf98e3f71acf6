import Foundation
import SwitchboardJSON
@testable import SwitchboardServer
import Testing

/// The `huawei` provider against a loopback HTTP/2 stand-in playing both Huawei's OAuth
/// server and Push Kit's send endpoint, checked against Huawei's documented API: the client
/// credentials form, the downlink message body, the result codes.
@Suite struct HuaweiPushTests {
    private static let tokenPath = "/oauth2/v3/token"
    private static let sendPath = "/v1/10086/messages:send"

    private func settings(_ standIn: VendorStandIn, appID: String = "10086", secret: String = "s3cret+/=&", profile: String? = nil) -> HuaweiSettings {
        var settings = HuaweiSettings(appID: appID, appSecret: secret)
        settings.common.profile = profile
        settings.tokenURL = standIn.url.appendingPathComponent(Self.tokenPath)
        settings.common.useStandIn(port: standIn.server.port, trustRoots: standIn.trustRoots)
        return settings
    }

    private func start(
        respond: @escaping @Sendable (LoopbackHTTP2Server.Request) -> LoopbackHTTP2Server.Answer = { _ in .init(status: 200, body: HuaweiPushTests.answer("80000000", "Success")) },
        secondAccount: Bool = false, configure: @escaping @Sendable (inout HuaweiSettings) -> Void = { _ in }
    ) async throws -> (server: TestServer, huawei: VendorStandIn) {
        let huawei = try await VendorStandIn.start(tokenPath: Self.tokenPath, respond: respond)
        var first = settings(huawei)
        configure(&first)
        let accounts = secondAccount ? [first, settings(huawei, appID: "20086", secret: "second", profile: "intl")] : [first]
        let server = try await TestServer.start { config in
            config.huawei = accounts
            config.pushTemplate = #"{"title":"Chat","alert":"New message from ${fromClientId}","badge":"Increment","convId":"${convId}"}"#
        }
        return (server, huawei)
    }

    static func answer(_ code: String, _ message: String) -> String {
        JSONValue.object(["code": .string(code), "msg": .string(message), "requestId": "160209653167346065000206"]).jsonString
    }

    @Test func anOfflineMembersHuaweiPhoneGetsOneNotificationAsPushKitDescribesIt() async throws {
        let (server, huawei) = try await start(configure: { $0.badgeClass = "com.example.chat.MainActivity" })
        try await server.installAndroidPhone("bob", vendor: "HMS", registrationID: "bobs-hms-token")
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        let sent = try await alice.sendText("hi", cid: cid)

        let send = try #require(try await huawei.sends(1).first)
        #expect(send.method == "POST" && send.path == Self.sendPath)
        #expect(send.headers["authorization"] == "Bearer token-1")
        #expect(send.headers["content-type"] == "application/json; charset=UTF-8")
        let body = VendorStandIn.json(send)
        #expect(body["validate_only"] == false)
        let message = try #require(body["message"])
        #expect(message["token"] == JSONValue.strings(["bobs-hms-token"]))
        #expect(message["data"] == nil && message["notification"] == nil)
        let android = try #require(message["android"])
        #expect(android["category"] == "IM")
        // What is left of the seven days, in seconds.
        let ttl = try #require(android["ttl"]?.stringValue.flatMap { Int64($0.dropLast()) })
        let left = (sent.t + 7 * 24 * 3600 * 1000 - Int64(Date().timeIntervalSince1970 * 1000)) / 1000
        #expect(android["ttl"]?.stringValue?.hasSuffix("s") == true && abs(ttl - left) < 60)
        let notification = try #require(android["notification"])
        #expect(notification["title"] == "Chat" && notification["body"] == "New message from alice")
        #expect(notification["badge"] == ["class": "com.example.chat.MainActivity", "add_num": 1])
        #expect(notification["click_action"]?["type"] == 1)
        #expect(Set(notification.objectValue?.keys.map { $0 } ?? []) == ["title", "body", "badge", "click_action"])
        // The tap opens the app's activity with the push's own keys in the `content` extra,
        // as LeanCloud's cloud sent it.
        let intent = try #require(notification["click_action"]?["intent"]?.stringValue)
        let prefix = "intent://cn.leancloud.push/notify_detail#Intent;scheme=lcpushscheme;S.content=", suffix = ";launchFlags=0x10000000;end"
        #expect(intent.hasPrefix(prefix) && intent.hasSuffix(suffix))
        let content = String(intent.dropFirst(prefix.count).dropLast(suffix.count))
        #expect(!content.contains { "{}\";=&".contains($0) })
        #expect(try JSONValue(parsing: try #require(content.removingPercentEncoding)) == ["convId": .string(cid)])

        // The access token came from Huawei's OAuth server by client credentials.
        try huawei.expectClientCredentials(clientID: "10086", clientSecret: "s3cret+/=&")
        #expect(try await server.metric(#"switchboard_push_huawei_total{outcome="sent"}"#, reaches: 1) == 1)

        // The next push keeps the access token; each message is one notification.
        _ = try await alice.sendText("again", cid: cid)
        let second = try await huawei.sends(2)[1]
        #expect(second.headers["authorization"] == "Bearer token-1")
        #expect(try await server.pushOutcomes("huawei", addingUpTo: 2) == ["sent": 2])
        #expect(huawei.sends.count == 2 && huawei.tokenRequests.count == 1)
        try await server.stop()
        try await huawei.stop()
    }

    @Test func deadTokensAreRemovedExpiredAccessTokensFetchedAgainAndFailuresTriedAgain() async throws {
        let stale = CallCounter(), broken = CallCounter()
        let (server, huawei) = try await start { request in
            switch VendorStandIn.json(request)["message"]?["token"]?.arrayValue?.first?.stringValue {
            case "gone":
                return .init(status: 200, body: Self.answer("80300007", "All the tokens are invalid"))
            case "stale" where stale.next() == 1:
                return .init(status: 200, body: Self.answer("80200003", "Access token expired"))
            case "broken" where broken.next() == 1:
                return .init(status: 500, body: Self.answer("81000001", "Internal error"))
            case "huge":
                return .init(status: 200, body: Self.answer("80300008", "The message body size exceeds the default value"))
            default:
                return .init(status: 200, body: Self.answer("80000000", "Success"))
            }
        }
        for (client, token) in [("bob", "gone"), ("carol", "stale"), ("dave", "broken"), ("erin", "huge")] {
            try await server.installAndroidPhone(client, vendor: "HMS", registrationID: token)
        }
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob", "carol", "dave", "erin"])
        _ = try await alice.sendText("one", cid: cid)
        func tokens(_ requests: [LoopbackHTTP2Server.Request]) -> [String] {
            requests.compactMap { VendorStandIn.json($0)["message"]?["token"]?.arrayValue?.first?.stringValue }.sorted()
        }
        let first = try await huawei.sends(6)
        #expect(tokens(first) == ["broken", "broken", "gone", "huge", "stale", "stale"])
        // The expired access token was dropped: the retry fetched another.
        #expect(first.last { tokens([$0]) == ["stale"] }?.headers["authorization"] == "Bearer token-2")
        #expect(huawei.tokenRequests.count == 2)

        // The dead token is gone before the next push looks devices up.
        #expect(try await server.metric(#"switchboard_push_huawei_total{outcome="removed_token"}"#, reaches: 1) == 1)
        _ = try await alice.sendText("two", cid: cid)
        let all = try await huawei.sends(9)
        // Every device's push counted: no send is still to come.
        #expect(try await server.pushOutcomes("huawei", addingUpTo: 7) == ["sent": 4, "rejected": 2, "removed_token": 1])
        #expect(tokens(Array(all.dropFirst(6))) == ["broken", "huge", "stale"])
        #expect(huawei.sends.count == 9)
        try await server.stop()
        try await huawei.stop()
    }

    /// Push Kit's flow control (503) is waited out as its `Retry-After` says: the provider's
    /// own first wait here is ten minutes, so only the header brings the second try.
    @Test func flowControlIsWaitedOutAsRetryAfterSays() async throws {
        let busy = CallCounter()
        let (server, huawei) = try await start(respond: { _ in
            busy.next() == 1 ? .init(status: 503, headers: ["retry-after": "1"]) : .init(status: 200, body: Self.answer("80000000", "Success"))
        }, configure: { $0.common.firstRetry = .seconds(600) })
        try await server.installAndroidPhone("bob", vendor: "HMS", registrationID: "bobs-hms-token")
        let alice = try await server.login("alice")
        _ = try await alice.sendText("hi", cid: try await alice.startConversation(members: ["bob"]))
        #expect(try await huawei.sends(2).count == 2)
        #expect(try await server.metric(#"switchboard_push_huawei_total{outcome="sent"}"#, reaches: 1) == 1)
        try await server.stop()
        try await huawei.stop()
    }

    /// Two accounts (two apps, or one app's builds for two markets): a device goes with the
    /// account its installation's `deviceProfile` names, else the default one; a profile with
    /// no account here is counted and not sent.
    @Test func eachDeviceGoesWithTheAccountItsProfilePicks() async throws {
        let (server, huawei) = try await start(secondAccount: true)
        for (client, profile) in [("bob", nil), ("carol", "intl"), ("dave", ""), ("erin", "beta")] as [(String, String?)] {
            try await server.installAndroidPhone(client, vendor: "HMS", registrationID: "\(client)s-hms-token", profile: profile)
        }
        let alice = try await server.login("alice")
        _ = try await alice.sendText("hi", cid: try await alice.startConversation(members: ["bob", "carol", "dave", "erin"]))
        let sends = try await huawei.sends(3)
        let byPath = Dictionary(grouping: sends, by: \.path).mapValues { $0.compactMap { VendorStandIn.json($0)["message"]?["token"]?.arrayValue?.first?.stringValue }.sorted() }
        #expect(byPath == [Self.sendPath: ["bobs-hms-token", "daves-hms-token"], "/v1/20086/messages:send": ["carols-hms-token"]])
        let secrets = huawei.tokenRequests.map { FormFields.parse($0.body) }.map { "\($0["client_id"] ?? ""):\($0["client_secret"] ?? "")" }.sorted()
        #expect(secrets == ["10086:s3cret+/=&", "20086:second"])
        // Each account sends with its own access token.
        let bearers = Dictionary(grouping: sends, by: \.path).mapValues { Set($0.compactMap { $0.headers["authorization"] }) }
        #expect(bearers.values.allSatisfy { $0.count == 1 } && Set(bearers.values.flatMap { $0 }).count == 2)
        #expect(try await server.pushOutcomes("huawei", addingUpTo: 4) == ["sent": 3, "other_team": 1])
        #expect(huawei.sends.count == 3)
        try await server.stop()
        try await huawei.stop()
    }

    /// LeanCloud's data: `silent` goes as a data message, the data as JSON text for
    /// LeanCloud's HMS receiver, and data with nothing to show is not sent; `badge` numbers set
    /// the count; a push without a title takes the account's, else its text.
    @Test func pushDataBecomesHuaweiMessages() throws {
        var settings = HuaweiSettings(appID: "10086", appSecret: "s")
        let now: Int64 = 1_800_000_000_000
        let silent = HuaweiMessage.body(
            token: "t", payload: ["ios": ["alert": "for iPhones"], "android": ["alert": "hi", "silent": true, "action": "com.example.UPDATE", "n": 3]],
            settings: settings, sentAt: now - 1000, now: now
        )
        #expect(silent == ["validate_only": false, "message": [
            "token": ["t"], "android": ["ttl": "604799s"], "data": .string(#"{"action":"com.example.UPDATE","alert":"hi","n":3,"silent":true}"#),
        ]])
        #expect(HuaweiMessage.body(token: "t", payload: ["convId": "c1"], settings: settings, sentAt: now, now: now) == nil)
        let titleOnly = HuaweiMessage.body(token: "t", payload: ["title": "Alice"], settings: settings, sentAt: now, now: now)
        #expect(titleOnly?["message"]?["android"]?["notification"]?["title"] == "Alice" && titleOnly?["message"]?["android"]?["notification"]?["body"] == "Alice")

        settings.badgeClass = "com.example.Main"
        settings.common.defaultTitle = "Example Chat"
        settings.category = nil
        settings.intentHost = "chat.example.com"
        let shown = try #require(HuaweiMessage.body(token: "t", payload: ["alert": ["body": "hello"], "badge": 120, "sound": "ding"], settings: settings, sentAt: now, now: now))
        let android = try #require(shown["message"]?["android"])
        #expect(android["category"] == nil)
        #expect(android["notification"]?["title"] == "Example Chat" && android["notification"]?["body"] == "hello")
        #expect(android["notification"]?["badge"] == ["class": "com.example.Main", "set_num": 99])
        #expect(android["notification"]?["click_action"]?["intent"] == "intent://chat.example.com/notify_detail#Intent;scheme=lcpushscheme;S.content=%7B%7D;launchFlags=0x10000000;end")
    }

    /// Push Kit's answers, code by code, as its result code table reads.
    @Test func pushKitAnswersAreReadByTheirResultCodes() {
        func outcome(_ status: Int, _ code: String?, retryAfter: String? = nil) -> String {
            let (answer, refused) = PushKitAnswer.interpret(status: status, code: code, message: "m", retryAfter: retryAfter)
            let name = switch answer {
            case .accepted: "accepted"
            case .deadToken: "dead"
            case .refused: "refused"
            case .quotaExhausted: "quota"
            case .later(_, let wait): wait.map { "later \($0)" } ?? "later"
            }
            return refused ? name + ", new access token" : name
        }
        #expect(outcome(200, "80000000") == "accepted")
        #expect(outcome(200, "80100000") == "accepted")
        #expect(outcome(200, "80300007") == "dead")
        #expect(outcome(400, "80300007") == "dead")
        #expect(outcome(200, "80200001") == "later, new access token")
        #expect(outcome(401, "80200003") == "later, new access token")
        #expect(outcome(401, nil) == "later, new access token")
        #expect(outcome(200, "80300008") == "refused")
        #expect(outcome(400, "80100003") == "refused")
        #expect(outcome(200, "80300002") == "refused")
        #expect(outcome(500, "81000001") == "later")
        #expect(outcome(503, nil, retryAfter: "30") == "later 30.0 seconds")
        #expect(outcome(502, nil) == "later")
    }

    @Test func theHuaweiConfigIsChecked() throws {
        for bad in [
            "push:\n  huawei:\n    appId: \"10086\"\n",
            "push:\n  huawei:\n    appSecret: s\n",
            "push:\n  huawei:\n    appId: \"10086\"\n    appSecret: s\n    sendUrl: http://push-api.cloud.huawei.com\n",
            "push:\n  huawei:\n    - appId: \"1\"\n      appSecret: s\n    - appId: \"2\"\n      appSecret: t\n",
            "push:\n  huawei:\n    - appId: \"1\"\n      appSecret: s\n      profile: cn\n    - appId: \"2\"\n      appSecret: t\n      profile: cn\n",
        ] {
            #expect(throws: ConfigError.self) { try ConfigText.load(bad) }
        }
        let config = try ConfigText.load("""
            push:
              huawei:
                - appId: "10086"
                  appSecret: s
                  badgeClass: com.example.Main
                  attempts: 2
                - appId: 20086
                  appSecret: t
                  profile: intl
                  category: ""
                  firstRetryMs: 50
            """)
        var first = HuaweiSettings(appID: "10086", appSecret: "s")
        first.badgeClass = "com.example.Main"
        first.common.attempts = 2
        var second = HuaweiSettings(appID: "20086", appSecret: "t")
        second.common.profile = "intl"
        second.category = nil
        second.common.firstRetry = .milliseconds(50)
        #expect(config.huawei == [first, second])
    }
}
