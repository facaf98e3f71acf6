import Foundation
import SwitchboardJSON
@testable import SwitchboardServer
import Testing

/// The `xiaomi` provider against a loopback stand-in for MiPush's server API that reads each
/// request as Xiaomi documents it (`POST /v3/message/regid`, `Authorization: key=<AppSecret>`,
/// a form) and answers as Xiaomi does: HTTP 200 and JSON with `code` 0, or an error's code.
@Suite struct XiaomiPushTests {
    private static let sendPath = "/v3/message/regid"

    private struct Setup {
        let server: TestServer
        let xiaomi: LoopbackHTTP2Server
    }

    /// `respond` answers sends (the form's fields); the default takes every message.
    private func start(
        accounts: [XiaomiSettings] = [XiaomiSettings(appSecret: "secret-a", packageName: "com.example.chat")],
        respond: @escaping @Sendable ([String: String]) -> String = { _ in Self.accepted() }
    ) async throws -> Setup {
        let xiaomi = try await LoopbackHTTP2Server.start { request in
            .init(status: 200, body: respond(FormFields.parse(request.body)))
        }
        let trustRoots = try TestCertificate.writeCertificate(in: TestServer.temporaryDirectory())
        let server = try await TestServer.start { config in
            config.xiaomi = accounts.map { account in
                var account = account
                account.common.useStandIn(port: xiaomi.port, trustRoots: trustRoots)
                return account
            }
        }
        return Setup(server: server, xiaomi: xiaomi)
    }

    private func sends(_ xiaomi: LoopbackHTTP2Server, count: Int) async throws -> [LoopbackHTTP2Server.Request] {
        let requests = try await xiaomi.waitForRequests(count)
        #expect(requests.allSatisfy { $0.path == Self.sendPath && $0.method == "POST" })
        return requests
    }

    @Test func anOfflineXiaomiPhoneGetsOneNotificationPerMessageWithItsAccount() async throws {
        let lite = {
            var lite = XiaomiSettings(appSecret: "secret-b", packageName: "com.example.lite")
            lite.common.profile = "lite"
            lite.channelID = "chat"
            return lite
        }()
        let setup = try await start(accounts: [XiaomiSettings(appSecret: "secret-a", packageName: "com.example.chat"), lite])
        let server = setup.server
        try await server.installAndroidPhone("carol", vendor: "mi", registrationID: "carols-regid")
        // Carol's SDK also logs in with its installation id, then goes offline: still one push, by regid.
        try await server.registerDevice("carol", token: "carol-installation")
        try await server.installAndroidPhone("dave", vendor: "mi", registrationID: "daves-regid", profile: "lite")
        // A profile this server has no account for: counted, not sent.
        try await server.installAndroidPhone("erin", vendor: "mi", registrationID: "erins-regid", profile: "elsewhere")
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["carol", "dave", "erin"])
        let sent = try await alice.sendText("hi", cid: cid)

        let requests = try await sends(setup.xiaomi, count: 2)
        let byToken = Dictionary(uniqueKeysWithValues: requests.map { (FormFields.parse($0.body)["registration_id"] ?? "", $0) })
        let carol = try #require(byToken["carols-regid"]), dave = try #require(byToken["daves-regid"])
        #expect(carol.headers["authorization"] == "key=secret-a" && dave.headers["authorization"] == "key=secret-b")
        #expect(carol.headers["content-type"] == "application/x-www-form-urlencoded;charset=UTF-8")
        let form = FormFields.parse(carol.body)
        #expect(Set(form.keys) == [
            "registration_id", "restricted_package_name", "payload", "pass_through", "notify_id", "time_to_live",
            "title", "description", "notify_type", "extra.notify_effect",
        ])
        #expect(form["restricted_package_name"] == "com.example.chat")
        // The data LeanCloud's receiver parses, as the default template made it.
        #expect(try JSONValue(parsing: try #require(form["payload"])) == ["alert": "New message", "badge": "Increment"])
        #expect(form["pass_through"] == "0" && form["notify_type"] == "-1" && form["extra.notify_effect"] == "1")
        // No title in the data and none configured: the text is the title too.
        #expect(form["title"] == "New message" && form["description"] == "New message")
        let ttl = try #require(form["time_to_live"].flatMap { Int64($0) })
        #expect(abs(ttl - (sent.t + 7 * 24 * 3600 * 1000 - Int64(Date().timeIntervalSince1970 * 1000))) < 60_000)
        let daveForm = FormFields.parse(dave.body)
        #expect(daveForm["restricted_package_name"] == "com.example.lite" && daveForm["extra.channel_id"] == "chat")
        #expect(daveForm["notify_id"] == form["notify_id"])

        #expect(try await server.metric(#"switchboard_push_xiaomi_total{outcome="sent"}"#, reaches: 2) == 2)
        #expect(try await server.metric(#"switchboard_push_xiaomi_total{outcome="other_team"}"#) == 1)
        // The log provider gets nobody: every device had its service.
        #expect(!FileManager.default.fileExists(atPath: server.config.pushLogPath))

        // The next message of another conversation: one more each, with that conversation's notify_id.
        let other = try await alice.startConversation(members: ["carol"])
        _ = try await alice.sendText("again", cid: other)
        let again = FormFields.parse(try await sends(setup.xiaomi, count: 3)[2].body)
        #expect(again["registration_id"] == "carols-regid" && again["notify_id"] != form["notify_id"])
        #expect(try await server.pushOutcomes("xiaomi", addingUpTo: 4) == ["sent": 3, "other_team": 1])
        #expect(setup.xiaomi.requests.count == 3)
        try await server.stop()
        try await setup.xiaomi.stop()
    }

    @Test func deadRegistrationIDsGoQuotaStopsAndRateLimitsAreTriedAgain() async throws {
        let busy = CallCounter()
        let setup = try await start { form in
            switch form["registration_id"] {
            case "gone":
                Self.error(20301, "No valid targets!", "发送消息失败")
            case "stale":
                Self.accepted(badRegIDs: "stale")
            case "busy" where busy.next() == 1:
                Self.error(10027, "app api call too frequently", "应用的API调用太频繁")
            case "spent":
                Self.error(200001, "exceed quota, quota: 10000, have acked: 10000", "超出每日推送数量限制")
            default:
                Self.accepted()
            }
        }
        for (client, token) in [("bob", "gone"), ("carol", "stale"), ("dave", "busy"), ("erin", "spent"), ("frank", "fine")] {
            try await setup.server.installAndroidPhone(client, vendor: "mi", registrationID: token)
        }
        let alice = try await setup.server.login("alice")
        let cid = try await alice.startConversation(members: ["bob", "carol", "dave", "erin", "frank"])
        _ = try await alice.sendText("one", cid: cid)
        func tokens(_ requests: [LoopbackHTTP2Server.Request]) -> [String] {
            requests.compactMap { FormFields.parse($0.body)["registration_id"] }.sorted()
        }
        #expect(tokens(try await sends(setup.xiaomi, count: 6)) == ["busy", "busy", "fine", "gone", "spent", "stale"])
        let server = setup.server
        #expect(try await server.metric(#"switchboard_push_xiaomi_total{outcome="removed_token"}"#, reaches: 2) == 2)
        #expect(try await server.metric(#"switchboard_push_xiaomi_total{outcome="sent"}"#, reaches: 2) == 2)
        #expect(try await server.metric(#"switchboard_push_xiaomi_total{outcome="quota_exhausted"}"#, reaches: 1) == 1)

        // The dead ids are gone; the used-up quota was not tried again, and is tried with the next message.
        _ = try await alice.sendText("two", cid: cid)
        let all = try await sends(setup.xiaomi, count: 9)
        // Every device's push counted: no send is still to come.
        #expect(try await server.pushOutcomes("xiaomi", addingUpTo: 8) == ["sent": 4, "quota_exhausted": 2, "removed_token": 2])
        #expect(tokens(Array(all.dropFirst(6))) == ["busy", "fine", "spent"])
        #expect(setup.xiaomi.requests.count == 9)
        try await server.stop()
        try await setup.xiaomi.stop()
    }

    /// LeanCloud's data: `silent` makes a pass-through message; a configured activity gets the
    /// data in the `com.avoscloud.Data` extra of the intent a tap starts.
    @Test func androidDataBecomesAMiPushMessage() throws {
        let now: Int64 = 1_800_000_000_000
        var settings = XiaomiSettings(appSecret: "s", packageName: "com.example.chat")
        func fields(_ payload: JSONValue) -> [String: String]? {
            XiaomiMessage.fields(token: "t", payload: payload, conversationID: "c", settings: settings, sentAt: now - 1000, now: now)
                .map { Dictionary($0.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first }) }
        }
        let silent = try #require(fields(["ios": ["alert": "for iPhones"], "android": ["alert": "hi", "silent": true, "count": 3]]))
        #expect(silent["pass_through"] == "1" && silent["time_to_live"] == "604799000")
        #expect(try JSONValue(parsing: try #require(silent["payload"])) == ["alert": "hi", "silent": true, "count": 3])
        #expect(Set(silent.keys) == ["registration_id", "restricted_package_name", "payload", "pass_through", "time_to_live"])

        settings.activity = "com.example.chat.ChatActivity"
        settings.common.defaultTitle = "Chat"
        let long = String(repeating: "字", count: 200)
        let shown = try #require(fields(["alert": ["title": "Alice", "body": .string(long)], "convId": "c1"]))
        #expect(shown["title"] == "Alice" && shown["description"] == String(repeating: "字", count: 127))
        #expect(shown["extra.notify_effect"] == "2")
        let intent = try #require(shown["extra.intent_uri"])
        let prefix = "intent:#Intent;component=com.example.chat/com.example.chat.ChatActivity;S.com.avoscloud.Data="
        #expect(intent.hasPrefix(prefix) && intent.hasSuffix(";end"))
        let extra = try #require(intent.dropFirst(prefix.count).dropLast(";end".count).removingPercentEncoding)
        #expect(try JSONValue(parsing: extra) == JSONValue(parsing: try #require(shown["payload"])))
        #expect(fields(["alert": "hi"])?["title"] == "Chat")
        // Nothing to show (a default title is no message): not sent.
        #expect(fields(["badge": "Increment"]) == nil)
    }

    @Test func theXiaomiConfigIsChecked() throws {
        for bad in [
            "push:\n  xiaomi:\n    packageName: com.example.chat\n",
            "push:\n  xiaomi:\n    appSecret: s\n    packageName: com.example.chat\n    sendUrl: http://api.xmpush.xiaomi.com\n",
            "push:\n  xiaomi:\n    - {appSecret: a, packageName: p, profile: x}\n    - {appSecret: b, packageName: p, profile: x}\n",
            "push:\n  xiaomi:\n    - {appSecret: a, packageName: p}\n    - {appSecret: b, packageName: p}\n",
        ] {
            #expect(throws: ConfigError.self) { try ConfigText.load(bad) }
        }
        let config = try ConfigText.load("""
            push:
              xiaomi:
                - appSecret: a
                  packageName: com.example.chat
                  channelId: chat
                - appSecret: b
                  packageName: com.example.chat
                  profile: global
                  sendUrl: https://sgp-api.xmpush.global.xiaomi.com
                  attempts: 2
            """)
        var first = XiaomiSettings(appSecret: "a", packageName: "com.example.chat")
        first.channelID = "chat"
        var second = XiaomiSettings(appSecret: "b", packageName: "com.example.chat")
        second.common.profile = "global"
        second.common.baseURL = URL(string: "https://sgp-api.xmpush.global.xiaomi.com")!
        second.common.attempts = 2
        #expect(config.xiaomi == [first, second])
    }

    /// Xiaomi's answer to a message it took; `badRegIDs`: the ids it will not deliver to.
    private static func accepted(badRegIDs: String? = nil) -> String {
        var data: JSONValue = ["id": "Xlm12345678901234567"]
        if let badRegIDs, case .object(var object) = data {
            object["bad_regids"] = .string(badRegIDs)
            data = .object(object)
        }
        return JSONValue.object([
            "result": "ok", "trace_id": "Xlm12345678901234567", "code": 0, "data": data, "description": "成功", "info": "Received push messages for 1 REGID",
        ]).jsonString
    }

    private static func error(_ code: Int64, _ reason: String, _ description: String) -> String {
        JSONValue.object([
            "result": "error", "trace_id": "Xlm12345678901234567", "code": .int(code), "reason": .string(reason), "description": .string(description),
        ]).jsonString
    }
}
