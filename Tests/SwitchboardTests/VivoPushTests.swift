import Crypto
import Foundation
import SwitchboardCore
import SwitchboardData
import SwitchboardJSON
@testable import SwitchboardServer
import Testing

/// The `vivo` provider against a loopback stand-in that plays vivo Push's auth and single
/// send endpoints as vivo's PUSH-UPS-API describes them: JSON in, `{result, desc, …}` out.
@Suite struct VivoPushTests {
    private static let authPath = "/message/auth"
    private static let sendPath = "/message/send"
    private static let sent = #"{"result":0,"desc":"请求成功","taskId":"121397329"}"#
    private static let clickIntent = "intent://cn.leancloud.push/detail#Intent;scheme=mixpushscheme;launchFlags=0x4000000;end"

    /// vivo's auth hands out `<appKey>-token-1`, `-2`, … per app; `answer` answers a send to a
    /// regId on its `try` (1 for the first).
    private static func standIn(answer: @escaping @Sendable (_ regID: String, _ try: Int) -> String = { _, _ in sent }) async throws -> LoopbackHTTP2Server {
        let tokens = KeyedCallCounter(), tries = KeyedCallCounter()
        return try await LoopbackHTTP2Server.start { request in
            let body = try? JSONValue(parsing: request.body)
            if request.path == authPath {
                let appKey = body?["appKey"]?.stringValue ?? ""
                return .init(status: 200, body: #"{"result":0,"desc":"请求成功","authToken":"\#(appKey)-token-\#(tokens.next(appKey))"}"#)
            }
            let regID = body?["regId"]?.stringValue ?? ""
            return .init(status: 200, body: answer(regID, tries.next(regID)))
        }
    }

    private static func settings(appID: Int64 = 10004, appKey: String = "vivo-app", profile: String? = nil, port: Int, trustRoots: String) -> VivoSettings {
        var settings = VivoSettings(appID: appID, appKey: appKey, appSecret: appKey + "-secret")
        settings.common.profile = profile
        settings.common.useStandIn(port: port, trustRoots: trustRoots)
        settings.common.defaultTitle = "Chat"
        return settings
    }

    /// A server pushing to `vivo` with the account of the app `vivo-app` (appId 10004), and
    /// one more for each of `profiles` (the app `<profile>-app`, appIds from 20001).
    private func startServer(_ vivo: LoopbackHTTP2Server, profiles: [String] = []) async throws -> TestServer {
        let trustRoots = try TestCertificate.writeCertificate(in: TestServer.temporaryDirectory())
        return try await TestServer.start { config in
            config.vivo = [Self.settings(port: vivo.port, trustRoots: trustRoots)] + profiles.enumerated().map { index, profile in
                Self.settings(appID: 20001 + Int64(index), appKey: profile + "-app", profile: profile, port: vivo.port, trustRoots: trustRoots)
            }
        }
    }

    private static func json(_ request: LoopbackHTTP2Server.Request) -> JSONValue? {
        try? JSONValue(parsing: request.body)
    }

    @Test func anOfflineMemberOnVivoGetsOneNotification() async throws {
        let vivo = try await Self.standIn()
        let server = try await startServer(vivo)
        try await server.installAndroidPhone("carol", vendor: "vivo", registrationID: "15638535410301000000001")
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["carol"])
        let message = try await alice.sendText("hi", cid: cid)

        #expect(try await server.metric(#"switchboard_push_vivo_total{outcome="sent"}"#, reaches: 1) == 1)
        let send = try #require(try await vivo.requests(to: Self.sendPath, count: 1).first)
        #expect(send.method == "POST" && send.headers["content-type"] == "application/json" && send.headers["authtoken"] == "vivo-app-token-1")
        var body = try #require(Self.json(send)?.objectValue)
        let ttl = try #require(body.removeValue(forKey: "timeToLive")?.int64Value)
        let left = (message.t + PushNotice.lifetime - Int64(Date().timeIntervalSince1970 * 1000)) / 1000
        #expect(abs(ttl - left) < 60)
        let requestID = SHA256.hash(data: Data((message.uid + "\n15638535410301000000001").utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(body == [
            "appId": 10004, "regId": "15638535410301000000001", "notifyType": 3, "title": "Chat", "content": "New message",
            "skipType": 4, "skipContent": .string(Self.clickIntent), "classification": 1, "category": "IM", "pushMode": 0,
            "requestId": .string(requestID),
            // The tap opens the app with LeanCloud's data where its Android SDK reads it.
            "clientCustomMap": ["com.avoscloud.Data": #"{"alert":"New message","badge":"Increment"}"#],
        ])

        // The authToken came from JSON signed with the AppSecret.
        let auths = vivo.requests.filter { $0.path == Self.authPath }
        #expect(auths.count == 1 && auths.first?.headers["content-type"] == "application/json")
        let auth = try #require(auths.first.flatMap(Self.json)?.objectValue)
        #expect(Set(auth.keys) == ["appId", "appKey", "timestamp", "sign"])
        #expect(auth["appId"] == 10004 && auth["appKey"] == "vivo-app")
        let timestamp = try #require(auth["timestamp"]?.int64Value)
        #expect(abs(timestamp - Int64(Date().timeIntervalSince1970 * 1000)) < 60_000)
        let signed = Insecure.MD5.hash(data: Data(("10004vivo-app" + String(timestamp) + "vivo-app-secret").utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(auth["sign"] == .string(signed))

        // The next message goes with the same authToken and a request id of its own.
        _ = try await alice.sendText("again", cid: cid)
        #expect(try await server.metric(#"switchboard_push_vivo_total{outcome="sent"}"#, reaches: 2) == 2)
        let sends = try await vivo.requests(to: Self.sendPath, count: 2)
        #expect(sends.count == 2 && sends[1].headers["authtoken"] == "vivo-app-token-1")
        #expect(Self.json(sends[1])?["requestId"] != .string(requestID))
        #expect(vivo.requests.filter { $0.path == Self.authPath }.count == 1)
        try await server.stop()
        try await vivo.stop()
    }

    @Test func deadRegIDsRefusedTokensServerErrorsAndTheDailyQuota() async throws {
        let vivo = try await Self.standIn { regID, attempt in
            switch (regID, attempt) {
            case ("gone", _): #"{"result":10302,"desc":"regId不合法","invalidUser":{"status":1,"userid":"gone"}}"#
            case ("stale", 1): #"{"result":10000,"desc":"权限认证失败"}"#
            case ("over", _): #"{"result":10070,"desc":"发送总量超出限制"}"#
            default: Self.sent
            }
        }
        let server = try await startServer(vivo)
        for (client, regID) in [("bob", "gone"), ("dave", "stale"), ("erin", "over")] {
            try await server.installAndroidPhone(client, vendor: "vivo", registrationID: regID)
        }
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob", "dave", "erin"])
        _ = try await alice.sendText("one", cid: cid)
        func outcome(_ name: String) -> String { #"switchboard_push_vivo_total{outcome="\#(name)"}"# }
        #expect(try await server.metric(outcome("sent"), reaches: 1) == 1)
        #expect(try await server.metric(outcome("removed_token"), reaches: 1) == 1)
        #expect(try await server.metric(outcome("quota_exhausted"), reaches: 1) == 1)
        func regIDs(_ requests: [LoopbackHTTP2Server.Request]) -> [String] {
            requests.compactMap { Self.json($0)?["regId"]?.stringValue }.sorted()
        }
        let first = try await vivo.requests(to: Self.sendPath, count: 4)
        // The refused authToken was fetched again and the push tried again; the quota was not.
        #expect(regIDs(first) == ["gone", "over", "stale", "stale"])
        let staleSends = first.filter { regIDs([$0]) == ["stale"] }
        #expect(staleSends.map { $0.headers["authtoken"] } == ["vivo-app-token-1", "vivo-app-token-2"])
        // The same message to the same device: the same request id on each try.
        #expect(Set(staleSends.map { Self.json($0)?["requestId"] }).count == 1)
        #expect(vivo.requests.filter { $0.path == Self.authPath }.count == 2)

        // The dead regId is gone before the next message looks devices up.
        _ = try await alice.sendText("two", cid: cid)
        #expect(try await server.metric(outcome("sent"), reaches: 2) == 2)
        #expect(try await server.metric(outcome("quota_exhausted"), reaches: 2) == 2)
        let all = try await vivo.requests(to: Self.sendPath, count: 6)
        #expect(regIDs(Array(all.dropFirst(4))) == ["over", "stale"])
        #expect(try await server.metric(outcome("removed_token")) == 1)
        #expect(try await server.metric(outcome("failed")) == 0)
        #expect(try await server.metric(outcome("rejected")) == 0)
        try await server.stop()
        try await vivo.stop()
    }

    /// vivo answering HTTP 503 (its servers' "Internet server error") is tried again.
    @Test func serverErrorsAreTriedAgain() async throws {
        let tries = CallCounter()
        let vivo = try await LoopbackHTTP2Server.start { request in
            if request.path == Self.authPath { return .init(status: 200, body: #"{"result":0,"desc":"请求成功","authToken":"t"}"#) }
            return tries.next() == 1 ? .init(status: 503, body: "Internet server error!") : .init(status: 200, body: Self.sent)
        }
        let server = try await startServer(vivo)
        try await server.installAndroidPhone("carol", vendor: "vivo", registrationID: "carols-reg-id")
        let alice = try await server.login("alice")
        _ = try await alice.sendText("hi", cid: try await alice.startConversation(members: ["carol"]))
        #expect(try await server.metric(#"switchboard_push_vivo_total{outcome="sent"}"#, reaches: 1) == 1)
        #expect(try await vivo.requests(to: Self.sendPath, count: 2).count == 2)
        try await server.stop()
        try await vivo.stop()
    }

    /// Two vivo apps: each device goes with the account its installation's `deviceProfile`
    /// names, with that app's own authToken and appId; a profile with no account here is
    /// counted, not sent.
    @Test func accountsByDeviceProfile() async throws {
        let vivo = try await Self.standIn()
        let server = try await startServer(vivo, profiles: ["work"])
        try await server.installAndroidPhone("bob", vendor: "vivo", registrationID: "bob-reg")
        try await server.installAndroidPhone("carol", vendor: "vivo", registrationID: "carol-reg", profile: "work")
        try await server.installAndroidPhone("dave", vendor: "vivo", registrationID: "dave-reg", profile: "home")
        let alice = try await server.login("alice")
        _ = try await alice.sendText("hi", cid: try await alice.startConversation(members: ["bob", "carol", "dave"]))
        #expect(try await server.metric(#"switchboard_push_vivo_total{outcome="sent"}"#, reaches: 2) == 2)
        #expect(try await server.metric(#"switchboard_push_vivo_total{outcome="other_team"}"#, reaches: 1) == 1)
        let sends = try await vivo.requests(to: Self.sendPath, count: 2)
        let byRegID = Dictionary(uniqueKeysWithValues: sends.map { request in
            (Self.json(request)?["regId"]?.stringValue ?? "", "\(request.headers["authtoken"] ?? "") \(Self.json(request)?["appId"]?.int64Value ?? 0)")
        })
        #expect(byRegID == ["bob-reg": "vivo-app-token-1 10004", "carol-reg": "work-app-token-1 20001"])
        try await server.stop()
        try await vivo.stop()
    }

    /// vivo's pass-through message is deprecated: a silent push is refused, counted, and
    /// never reaches vivo.
    @Test func aSilentPushIsRefusedWithoutARequest() async throws {
        let vivo = try await Self.standIn()
        let trustRoots = try TestCertificate.writeCertificate(in: TestServer.temporaryDirectory())
        let notice = PushNotice(
            conversationID: "c1", messageID: "m1", from: "alice", timestamp: SystemWallClock().now(), recipients: ["bob"],
            devices: ["bob": [PushDevice(token: "bob-reg", service: .vivo)]], payload: ["alert": "hi", "content-available": 1]
        )
        let metrics = try await PushGatewayRun.metrics(pushing: notice, queue: "push_vivo") { store, queue, metrics, logger in
            try VivoPushGateway(accounts: [Self.settings(port: vivo.port, trustRoots: trustRoots)], store: store, queue: queue, metrics: metrics, logger: logger)
        }
        #expect(metrics.contains(#"switchboard_push_vivo_total{outcome="rejected"} 1"#))
        #expect(vivo.requests.isEmpty)
        try await vivo.stop()
    }

    /// LeanCloud's Android data: a title cut to vivo's width, a sound that rings, the app's
    /// keys as extras within vivo's ten, a test push without category, and vivo's bounds.
    @Test func androidDataBecomesAVivoMessage() throws {
        var settings = VivoSettings(appID: 7, appKey: "k", appSecret: "s")
        settings.category = ""
        settings.testPush = true
        let now: Int64 = 1_800_000_000_000
        var data: [String: JSONValue] = ["title": .string(String(repeating: "标", count: 30)), "alert": "hello", "sound": "default"]
        for index in 0..<12 { data["key\(index)"] = .int(Int64(index)) }
        let body = try #require(VivoMessage.body(
            to: "r", AndroidPushContent(payload: .object(data)), messageID: "m", settings: settings, sentAt: now - PushNotice.lifetime + 10_000, now: now
        ))
        // 20 Chinese characters make vivo's 40.
        #expect(body["title"] == .string(String(repeating: "标", count: 20)) && body["content"] == "hello")
        #expect(body["notifyType"] == 4 && body["pushMode"] == 1 && body["category"] == nil && body["appId"] == 7)
        #expect(body["timeToLive"] == 900)
        let extras = try #require(body["clientCustomMap"]?.objectValue)
        #expect(extras.count == 10 && extras["com.avoscloud.Data"] != nil && extras["key0"] == "0" && extras["key8"] == nil)
        #expect(VivoMessage.body(to: "r", AndroidPushContent(payload: ["convId": "c"]), messageID: "m", settings: settings, sentAt: now, now: now) == nil)
    }

    @Test func theVivoConfigIsChecked() throws {
        for bad in [
            "push:\n  vivo:\n    appKey: k\n    appSecret: s\n",
            "push:\n  vivo:\n    appId: 10004\n    appKey: k\n    appSecret: s\n    baseUrl: http://insecure\n",
            "push:\n  vivo:\n    appId: 10004\n    appKey: k\n    appSecret: s\n    classification: 2\n",
            "push:\n  vivo:\n    - {appId: 1, appKey: a, appSecret: s, profile: p}\n    - {appId: 2, appKey: b, appSecret: s, profile: p}\n",
        ] {
            #expect(throws: ConfigError.self) { try ConfigText.load(bad) }
        }
        let config = try ConfigText.load("""
            push:
              vivo:
                - {appId: 10004, appKey: a, appSecret: s, defaultTitle: Chat}
                - {appId: 10005, appKey: b, appSecret: t, profile: work, testPush: true, firstRetryMs: 50}
            """)
        var main = VivoSettings(appID: 10004, appKey: "a", appSecret: "s")
        main.common.defaultTitle = "Chat"
        var work = VivoSettings(appID: 10005, appKey: "b", appSecret: "t")
        work.common.profile = "work"
        work.testPush = true
        work.common.firstRetry = .milliseconds(50)
        #expect(config.vivo == [main, work])
    }
}
