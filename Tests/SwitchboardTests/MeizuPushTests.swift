import Crypto
import Foundation
import SwitchboardCore
import SwitchboardJSON
@testable import SwitchboardServer
import Testing

/// The `meizu` provider against a loopback stand-in for Meizu's push API that reads each
/// request as MEIZUPUSH/PushAPI documents it (a form of `appId`, `pushIds`, `messageJson` and
/// `sign`, the MD5 of the others in name order followed by the AppSecret, checked here) and
/// answers as Meizu does: `code` "200" with the pushIds it did not push to by reason, or an error code.
@Suite struct MeizuPushTests {
    private static let notificationPath = "/garcia/api/server/push/varnished/pushByPushId"
    private static let passThroughPath = "/garcia/api/server/push/unvarnished/pushByPushId"
    private static let secrets = ["100001": "secret-a", "100002": "secret-b"]

    private struct Setup {
        let server: TestServer
        let meizu: LoopbackHTTP2Server
    }

    /// `respond` answers correctly signed sends (the form's fields); the default takes every
    /// message. A wrong signature gets Meizu's 1006.
    private func start(
        template: String? = nil, accounts: [MeizuSettings] = [MeizuSettings(appID: "100001", appSecret: "secret-a")],
        respond: @escaping @Sendable ([String: String]) -> String = { _ in Self.answer() }
    ) async throws -> Setup {
        let meizu = try await LoopbackHTTP2Server.start { request in
            let form = FormFields.parse(request.body)
            guard Self.isSigned(form) else { return .init(status: 200, body: Self.answer(code: "1006", message: "签名认证失败")) }
            return .init(status: 200, body: respond(form))
        }
        let trustRoots = try TestCertificate.writeCertificate(in: TestServer.temporaryDirectory())
        let server = try await TestServer.start { config in
            config.meizu = accounts.map { account in
                var account = account
                account.common.useStandIn(port: meizu.port, trustRoots: trustRoots)
                return account
            }
            if let template { config.pushTemplate = template }
        }
        return Setup(server: server, meizu: meizu)
    }

    /// Meizu's signature, spelled out: `appId=…messageJson=…pushIds=…` then the AppSecret.
    private static func isSigned(_ form: [String: String]) -> Bool {
        guard Set(form.keys) == ["appId", "pushIds", "messageJson", "sign"], let appID = form["appId"], let secret = secrets[appID] else { return false }
        let text = "appId=\(appID)messageJson=\(form["messageJson"] ?? "")pushIds=\(form["pushIds"] ?? "")\(secret)"
        return form["sign"] == Insecure.MD5.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    @Test func anOfflineMeizuPhoneGetsOneNotificationPerMessageWithItsAccount() async throws {
        var lite = MeizuSettings(appID: "100002", appSecret: "secret-b")
        lite.common.profile = "lite"
        lite.activity = "com.example.lite.ChatActivity"
        let setup = try await start(accounts: [MeizuSettings(appID: "100001", appSecret: "secret-a"), lite])
        let server = setup.server
        try await server.installAndroidPhone("carol", vendor: "mz", registrationID: "carols-pushid")
        // Carol's SDK also logs in with its installation id, then goes offline: still one push, by pushId.
        try await server.registerDevice("carol", token: "carol-installation")
        try await server.installAndroidPhone("dave", vendor: "mz", registrationID: "daves-pushid", profile: "lite")
        try await server.installAndroidPhone("erin", vendor: "mz", registrationID: "erins-pushid", profile: "elsewhere")
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["carol", "dave", "erin"])
        _ = try await alice.sendText("hi", cid: cid)

        let requests = try await setup.meizu.waitForRequests(2)
        #expect(requests.allSatisfy { $0.path == Self.notificationPath && $0.method == "POST" && Self.isSigned(FormFields.parse($0.body)) })
        #expect(requests.allSatisfy { $0.headers["content-type"] == "application/x-www-form-urlencoded;charset=UTF-8" })
        let byToken = Dictionary(uniqueKeysWithValues: requests.map { FormFields.parse($0.body) }.map { ($0["pushIds"] ?? "", $0) })
        let carol = try #require(byToken["carols-pushid"]), dave = try #require(byToken["daves-pushid"])
        #expect(carol["appId"] == "100001" && dave["appId"] == "100002")
        let data: JSONValue = ["alert": "New message", "badge": "Increment"]
        let message = try JSONValue(parsing: try #require(carol["messageJson"]))
        #expect(message == [
            "noticeBarInfo": ["title": "New message", "content": "New message"],
            "clickTypeInfo": ["clickType": 0, "parameters": ["com.avoscloud.Data": .string(data.jsonString)]],
            "pushTimeInfo": ["offLine": 1, "validTime": 72],
        ])
        let daveClick = try JSONValue(parsing: try #require(dave["messageJson"]))["clickTypeInfo"]
        #expect(daveClick == ["clickType": 1, "activity": "com.example.lite.ChatActivity", "parameters": ["com.avoscloud.Data": .string(data.jsonString)]])

        #expect(try await server.metric(#"switchboard_push_meizu_total{outcome="sent"}"#, reaches: 2) == 2)
        #expect(try await server.metric(#"switchboard_push_meizu_total{outcome="other_team"}"#) == 1)
        _ = try await alice.sendText("again", cid: cid)
        #expect(try await server.pushOutcomes("meizu", addingUpTo: 6) == ["sent": 4, "other_team": 2])
        #expect(setup.meizu.requests.count == 4)
        try await server.stop()
        try await setup.meizu.stop()
    }

    /// Silent pushes go as pass-through messages, the ones Meizu limits (110053).
    @Test func deadPushIDsGoQuotaStopsAndRateLimitsAreTriedAgain() async throws {
        let busy = CallCounter(), slow = CallCounter()
        let setup = try await start(template: #"{"alert":"New message","silent":true}"#) { form in
            switch form["pushIds"] {
            case "gone": Self.answer(value: ["110002": ["gone"]])
            case "bogus": Self.answer(value: ["110003": ["bogus"]])
            case "busy" where busy.next() == 1: Self.answer(code: "110010", message: "应用请求频率超过限制")
            case "slow" where slow.next() == 1: Self.answer(value: ["518": ["slow"]])
            case "spent": Self.answer(code: "110053", message: "透传超过限制")
            default: Self.answer()
            }
        }
        let server = setup.server
        for (client, token) in [("bob", "gone"), ("carol", "bogus"), ("dave", "busy"), ("erin", "slow"), ("frank", "spent"), ("grace", "fine")] {
            try await server.installAndroidPhone(client, vendor: "mz", registrationID: token)
        }
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob", "carol", "dave", "erin", "frank", "grace"])
        _ = try await alice.sendText("one", cid: cid)
        func tokens(_ requests: [LoopbackHTTP2Server.Request]) -> [String] {
            requests.compactMap { FormFields.parse($0.body)["pushIds"] }.sorted()
        }
        let first = try await setup.meizu.waitForRequests(8)
        #expect(tokens(first) == ["bogus", "busy", "busy", "fine", "gone", "slow", "slow", "spent"])
        #expect(first.allSatisfy { $0.path == Self.passThroughPath })
        let message = try JSONValue(parsing: try #require(FormFields.parse(first[0].body)["messageJson"]))
        #expect(message == ["content": #"{"alert":"New message","silent":true}"#, "pushTimeInfo": ["offLine": 1, "validTime": 72]])
        #expect(try await server.metric(#"switchboard_push_meizu_total{outcome="removed_token"}"#, reaches: 2) == 2)
        #expect(try await server.metric(#"switchboard_push_meizu_total{outcome="sent"}"#, reaches: 3) == 3)
        #expect(try await server.metric(#"switchboard_push_meizu_total{outcome="quota_exhausted"}"#, reaches: 1) == 1)

        _ = try await alice.sendText("two", cid: cid)
        let all = try await setup.meizu.waitForRequests(12)
        // Every device's push counted: no send is still to come.
        #expect(try await server.pushOutcomes("meizu", addingUpTo: 10) == ["sent": 6, "quota_exhausted": 2, "removed_token": 2])
        #expect(tokens(Array(all.dropFirst(8))) == ["busy", "fine", "slow", "spent"])
        #expect(setup.meizu.requests.count == 12)
        try await server.stop()
        try await setup.meizu.stop()
    }

    @Test func androidDataBecomesAFlymeMessage() throws {
        let now: Int64 = 1_800_000_000_000
        var settings = MeizuSettings(appID: "1", appSecret: "s")
        settings.common.defaultTitle = "Chat"
        let long = String(repeating: "字", count: 150)
        // Two hours of the seven days left: kept offline two hours.
        let built = MeizuMessage.build(payload: ["alert": .string(long)], settings: settings, sentAt: now - PushNotice.lifetime + 7_200_000, now: now)
        guard case .message(let path, let json) = built else { Issue.record("not built: \(built)"); return }
        #expect(path == "garcia/api/server/push/varnished/pushByPushId")
        #expect(json["noticeBarInfo"] == ["title": "Chat", "content": .string(String(repeating: "字", count: 100))])
        #expect(json["pushTimeInfo"] == ["offLine": 1, "validTime": 2])
        let big: JSONValue = ["silent": true, "blob": .string(String(repeating: "x", count: 2000))]
        #expect(MeizuMessage.build(payload: big, settings: settings, sentAt: now, now: now) == .unsendable("pass-through content over Meizu's 2000 bytes"))
        // Nothing to show (a default title is no message): not sent.
        #expect(MeizuMessage.build(payload: ["badge": 1], settings: settings, sentAt: now, now: now) == .unsendable("the push data has neither title nor alert"))
    }

    /// The signature as Meizu's documentation computes it, for the parameters of its example.
    @Test func requestsAreSignedAsMeizuDocumentsIt() {
        let fields: [(name: String, value: String)] = [("pushIds", "RA50c6348036344485d01776773577c64740465480a6b"), ("appId", "10000"), ("messageJson", #"{"title":"t"}"#)]
        let text = #"appId=10000messageJson={"title":"t"}pushIds=RA50c6348036344485d01776773577c64740465480a6b"# + "APP_SECRET"
        #expect(MeizuSignature.sign(fields, secret: "APP_SECRET") == Insecure.MD5.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined())
    }

    @Test func theMeizuConfigIsChecked() throws {
        for bad in [
            "push:\n  meizu:\n    appId: 100001\n",
            "push:\n  meizu:\n    appId: 100001\n    appSecret: s\n    sendUrl: http://server-api-push.meizu.com\n",
            "push:\n  meizu:\n    - {appId: 1, appSecret: a, profile: x}\n    - {appId: 2, appSecret: b, profile: x}\n",
        ] {
            #expect(throws: ConfigError.self) { try ConfigText.load(bad) }
        }
        let config = try ConfigText.load("push:\n  meizu:\n    appId: 100001\n    appSecret: s\n    activity: com.example.chat.ChatActivity\n")
        var expected = MeizuSettings(appID: "100001", appSecret: "s")
        expected.activity = "com.example.chat.ChatActivity"
        #expect(config.meizu == [expected])
    }

    private static func answer(code: String = "200", message: String = "", value: JSONValue = [:]) -> String {
        var answer: [String: JSONValue] = ["code": .string(code), "message": .string(message), "redirect": ""]
        answer["value"] = code == "200" ? value : ""
        if code == "200" { answer["msgId"] = "c2ee5c3bf00448cfbceb7fdf68c3c8eb" }
        return JSONValue.object(answer).jsonString
    }
}
