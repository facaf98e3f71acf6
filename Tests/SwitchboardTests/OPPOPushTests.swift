import Crypto
import Foundation
import SwitchboardCore
import SwitchboardData
import SwitchboardJSON
@testable import SwitchboardServer
import Testing

/// The `oppo` provider against a loopback stand-in that plays OPPO Push's auth and unicast
/// endpoints as OPPO's server API describes them: forms in, `{code, message, data}` out.
@Suite struct OPPOPushTests {
    private static let authPath = "/server/v1/auth"
    private static let sendPath = "/server/v1/message/notification/unicast"
    private static let sent = #"{"code":0,"message":"Success","data":{"messageId":"ZngnvJIM7wQusNtbqYnpH6XX-1-1-622ff7cfae27668d2ed3afec"}}"#

    /// OPPO's auth hands out `<appKey>-token-1`, `-2`, … per app; `answer` answers a unicast to
    /// a registration id on its `try` (1 for the first).
    private static func standIn(answer: @escaping @Sendable (_ registrationID: String, _ try: Int) -> String = { _, _ in sent }) async throws -> LoopbackHTTP2Server {
        let tokens = KeyedCallCounter(), tries = KeyedCallCounter()
        return try await LoopbackHTTP2Server.start { request in
            let form = FormFields.parse(request.body)
            if request.path == authPath {
                let appKey = form["app_key"] ?? ""
                let createTime = Int64(Date().timeIntervalSince1970 * 1000)
                return .init(status: 200, body: #"{"code":0,"message":"Success","data":{"auth_token":"\#(appKey)-token-\#(tokens.next(appKey))","create_time":\#(createTime)}}"#)
            }
            let registrationID = message(form)?["target_value"]?.stringValue ?? ""
            return .init(status: 200, body: answer(registrationID, tries.next(registrationID)))
        }
    }

    private static func message(_ form: [String: String]) -> JSONValue? {
        form["message"].flatMap { try? JSONValue(parsing: $0) }
    }

    private static func settings(appKey: String = "oppo-app", profile: String? = nil, port: Int, trustRoots: String) -> OPPOSettings {
        var settings = OPPOSettings(appKey: appKey, masterSecret: appKey + "-master-secret", channelID: "chat_messages")
        settings.common.profile = profile
        settings.common.useStandIn(port: port, trustRoots: trustRoots)
        settings.common.defaultTitle = "Chat"
        return settings
    }

    /// A server pushing to `oppo` with the account of the app `oppo-app`, and one more for
    /// each of `profiles` (the app `<profile>-app`).
    private func startServer(_ oppo: LoopbackHTTP2Server, profiles: [String] = []) async throws -> TestServer {
        let trustRoots = try TestCertificate.writeCertificate(in: TestServer.temporaryDirectory())
        return try await TestServer.start { config in
            config.oppo = [Self.settings(port: oppo.port, trustRoots: trustRoots)]
                + profiles.map { Self.settings(appKey: $0 + "-app", profile: $0, port: oppo.port, trustRoots: trustRoots) }
        }
    }

    @Test func anOfflineMemberOnOPPOGetsOneNotification() async throws {
        let oppo = try await Self.standIn()
        let server = try await startServer(oppo)
        try await server.installAndroidPhone("carol", vendor: "oppo", registrationID: "CN_carols-registration-id")
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["carol"])
        let message = try await alice.sendText("hi", cid: cid)

        #expect(try await server.metric(#"switchboard_push_oppo_total{outcome="sent"}"#, reaches: 1) == 1)
        let send = try #require(try await oppo.requests(to: Self.sendPath, count: 1).first)
        #expect(send.method == "POST" && send.headers["content-type"] == "application/x-www-form-urlencoded")
        let form = FormFields.parse(send.body)
        #expect(Set(form.keys) == ["auth_token", "message"])
        #expect(form["auth_token"] == "oppo-app-token-1")
        let unicast = try #require(Self.message(form))
        #expect(unicast["target_type"] == 2 && unicast["target_value"] == "CN_carols-registration-id")
        var notification = try #require(unicast["notification"]?.objectValue)
        let ttl = try #require(notification.removeValue(forKey: "off_line_ttl")?.int64Value)
        let left = (message.t + PushNotice.lifetime - Int64(Date().timeIntervalSince1970 * 1000)) / 1000
        #expect(abs(ttl - left) < 60)
        // The tap opens the app with LeanCloud's data where its Android SDK reads it.
        let parameters = try JSONValue(parsing: try #require(notification.removeValue(forKey: "action_parameters")?.stringValue))
        #expect(parameters == ["com.avoscloud.Data": #"{"alert":"New message","badge":"Increment"}"#])
        #expect(notification == [
            "title": "Chat", "content": "New message", "channel_id": "chat_messages", "category": "IM", "notify_level": 2,
            "click_action_type": 0, "off_line": true,
        ])

        // The auth_token came from a form signed with the MasterSecret.
        let auths = oppo.requests.filter { $0.path == Self.authPath }
        #expect(auths.count == 1)
        let auth = FormFields.parse(try #require(auths.first).body)
        #expect(Set(auth.keys) == ["app_key", "timestamp", "sign"] && auths.first?.headers["content-type"] == "application/x-www-form-urlencoded")
        #expect(auth["app_key"] == "oppo-app")
        let timestamp = try #require(auth["timestamp"].flatMap { Int64($0) })
        #expect(abs(timestamp - Int64(Date().timeIntervalSince1970 * 1000)) < 60_000)
        let signed = SHA256.hash(data: Data(("oppo-app" + String(timestamp) + "oppo-app-master-secret").utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(auth["sign"] == signed)

        // The next message goes with the same auth_token; one notification each.
        _ = try await alice.sendText("again", cid: cid)
        #expect(try await server.metric(#"switchboard_push_oppo_total{outcome="sent"}"#, reaches: 2) == 2)
        let sends = try await oppo.requests(to: Self.sendPath, count: 2)
        #expect(sends.count == 2 && FormFields.parse(sends[1].body)["auth_token"] == "oppo-app-token-1")
        #expect(oppo.requests.filter { $0.path == Self.authPath }.count == 1)
        try await server.stop()
        try await oppo.stop()
    }

    @Test func deadTokensRefusedTokensFlowControlAndTheDailyQuota() async throws {
        let oppo = try await Self.standIn { registrationID, attempt in
            switch (registrationID, attempt) {
            case ("CN_gone", _): #"{"code":10000,"message":"Invalid Registration_id"}"#
            case ("CN_busy", 1): #"{"code":-2,"message":"Service in Flow Control"}"#
            case ("CN_stale", 1): #"{"code":11,"message":"Invalid AuthToken"}"#
            case ("CN_over", _): #"{"code":33,"message":"The number of messages exceeds the daily limit"}"#
            default: Self.sent
            }
        }
        let server = try await startServer(oppo)
        for (client, registrationID) in [("bob", "CN_gone"), ("carol", "CN_busy"), ("dave", "CN_stale"), ("erin", "CN_over")] {
            try await server.installAndroidPhone(client, vendor: "oppo", registrationID: registrationID)
        }
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob", "carol", "dave", "erin"])
        _ = try await alice.sendText("one", cid: cid)
        func outcome(_ name: String) -> String { #"switchboard_push_oppo_total{outcome="\#(name)"}"# }
        #expect(try await server.metric(outcome("sent"), reaches: 2) == 2)
        #expect(try await server.metric(outcome("removed_token"), reaches: 1) == 1)
        #expect(try await server.metric(outcome("quota_exhausted"), reaches: 1) == 1)
        func targets(_ requests: [LoopbackHTTP2Server.Request]) -> [String] {
            requests.compactMap { Self.message(FormFields.parse($0.body))?["target_value"]?.stringValue }.sorted()
        }
        let first = try await oppo.requests(to: Self.sendPath, count: 6)
        // Flow control and the refused token were tried again; the quota was not.
        #expect(targets(first) == ["CN_busy", "CN_busy", "CN_gone", "CN_over", "CN_stale", "CN_stale"])
        // Invalid AuthToken cost the token: the try after it fetched another, once.
        let staleRetry = try #require(first.last { targets([$0]) == ["CN_stale"] })
        #expect(FormFields.parse(staleRetry.body)["auth_token"] == "oppo-app-token-2")
        #expect(oppo.requests.filter { $0.path == Self.authPath }.count == 2)

        // The dead registration id is gone before the next message looks devices up.
        _ = try await alice.sendText("two", cid: cid)
        #expect(try await server.metric(outcome("sent"), reaches: 4) == 4)
        #expect(try await server.metric(outcome("quota_exhausted"), reaches: 2) == 2)
        let all = try await oppo.requests(to: Self.sendPath, count: 9)
        #expect(targets(Array(all.dropFirst(6))) == ["CN_busy", "CN_over", "CN_stale"])
        #expect(try await server.metric(outcome("removed_token")) == 1)
        #expect(try await server.metric(outcome("failed")) == 0)
        #expect(try await server.metric(outcome("rejected")) == 0)
        try await server.stop()
        try await oppo.stop()
    }

    /// Two OPPO apps: each device goes with the account its installation's `deviceProfile`
    /// names, with that app's own auth_token; a profile with no account here is counted, not sent.
    @Test func accountsByDeviceProfile() async throws {
        let oppo = try await Self.standIn()
        let server = try await startServer(oppo, profiles: ["work"])
        try await server.installAndroidPhone("bob", vendor: "oppo", registrationID: "CN_bob")
        try await server.installAndroidPhone("carol", vendor: "oppo", registrationID: "CN_carol", profile: "work")
        try await server.installAndroidPhone("dave", vendor: "oppo", registrationID: "CN_dave", profile: "home")
        let alice = try await server.login("alice")
        _ = try await alice.sendText("hi", cid: try await alice.startConversation(members: ["bob", "carol", "dave"]))
        #expect(try await server.metric(#"switchboard_push_oppo_total{outcome="sent"}"#, reaches: 2) == 2)
        #expect(try await server.metric(#"switchboard_push_oppo_total{outcome="other_team"}"#, reaches: 1) == 1)
        let sends = try await oppo.requests(to: Self.sendPath, count: 2)
        let tokens = Dictionary(uniqueKeysWithValues: sends.map { request in
            let form = FormFields.parse(request.body)
            return (Self.message(form)?["target_value"]?.stringValue ?? "", form["auth_token"] ?? "")
        })
        #expect(tokens == ["CN_bob": "oppo-app-token-1", "CN_carol": "work-app-token-1"])
        #expect(Set(oppo.requests.filter { $0.path == Self.authPath }.map { FormFields.parse($0.body)["app_key"] ?? "" }) == ["oppo-app", "work-app"])
        try await server.stop()
        try await oppo.stop()
    }

    /// OPPO has no pass-through message for apps: a silent push is refused, counted, and
    /// never reaches OPPO.
    @Test func aSilentPushIsRefusedWithoutARequest() async throws {
        let oppo = try await Self.standIn()
        let trustRoots = try TestCertificate.writeCertificate(in: TestServer.temporaryDirectory())
        let notice = PushNotice(
            conversationID: "c1", messageID: "m1", from: "alice", timestamp: SystemWallClock().now(), recipients: ["bob"],
            devices: ["bob": [PushDevice(token: "CN_bob", service: .oppo)]], payload: ["alert": "hi", "silent": true]
        )
        let metrics = try await PushGatewayRun.metrics(pushing: notice, queue: "push_oppo") { store, queue, metrics, logger in
            try OPPOPushGateway(accounts: [Self.settings(port: oppo.port, trustRoots: trustRoots)], store: store, queue: queue, metrics: metrics, logger: logger)
        }
        #expect(metrics.contains(#"switchboard_push_oppo_total{outcome="rejected"} 1"#))
        #expect(oppo.requests.isEmpty)
        try await oppo.stop()
    }

    /// LeanCloud's Android data: the alert object's title and body, the app's own keys as
    /// extras, an activity to open, a push without category, and OPPO's offline bounds.
    @Test func androidDataBecomesAnOPPONotification() throws {
        var settings = OPPOSettings(appKey: "k", masterSecret: "s", channelID: "im")
        settings.activity = "com.example.chat.ConversationActivity"
        settings.category = ""
        let now: Int64 = 1_800_000_000_000
        let message = try #require(OPPOMessage.message(
            to: "CN_1", AndroidPushContent(payload: ["ios": ["badge": 1], "alert": ["title": "Alice", "body": .string(String(repeating: "好", count: 250))], "convId": "c1", "count": 3]),
            settings: settings, sentAt: now - PushNotice.lifetime + 10_000, now: now
        ))
        let notification = try #require(message["notification"])
        #expect(notification["title"] == "Alice" && notification["content"] == .string(String(repeating: "好", count: 200)))
        #expect(notification["click_action_type"] == 4 && notification["click_action_activity"] == "com.example.chat.ConversationActivity")
        #expect(notification["category"] == nil && notification["notify_level"] == nil)
        // Ten seconds were left: OPPO keeps an offline message an hour at least.
        #expect(notification["off_line_ttl"] == 3600)
        let parameters = try JSONValue(parsing: try #require(notification["action_parameters"]?.stringValue))
        #expect(parameters["convId"] == "c1" && parameters["count"] == "3")
        #expect(parameters["com.avoscloud.Data"].flatMap { $0.stringValue.flatMap { try? JSONValue(parsing: $0) } }?["convId"] == "c1")
        // Nothing to show: no notification.
        #expect(OPPOMessage.message(to: "CN_1", AndroidPushContent(payload: ["convId": "c1"]), settings: settings, sentAt: now, now: now) == nil)
    }

    @Test func theOPPOConfigIsChecked() throws {
        for bad in [
            "push:\n  oppo:\n    appKey: k\n    masterSecret: s\n",
            "push:\n  oppo:\n    appKey: k\n    masterSecret: s\n    channelId: im\n    baseUrl: http://insecure\n",
            "push:\n  oppo:\n    appKey: k\n    masterSecret: s\n    channelId: im\n    notifyLevel: 3\n",
            "push:\n  oppo:\n    - {appKey: a, masterSecret: s, channelId: im}\n    - {appKey: b, masterSecret: s, channelId: im}\n",
        ] {
            #expect(throws: ConfigError.self) { try ConfigText.load(bad) }
        }
        let config = try ConfigText.load("""
            push:
              oppo:
                - {appKey: a, masterSecret: s, channelId: im, defaultTitle: Chat}
                - {appKey: b, masterSecret: t, channelId: im, profile: work, notifyLevel: 16, attempts: 2}
            """)
        var main = OPPOSettings(appKey: "a", masterSecret: "s", channelID: "im")
        main.common.defaultTitle = "Chat"
        var work = OPPOSettings(appKey: "b", masterSecret: "t", channelID: "im")
        work.common.profile = "work"
        work.notifyLevel = 16
        work.common.attempts = 2
        #expect(config.oppo == [main, work])
    }
}
