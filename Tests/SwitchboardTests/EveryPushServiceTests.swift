import Crypto
import CryptoExtras
import Foundation
import SwitchboardJSON
import SwitchboardServer
import Testing

/// Every push service configured at once, as docs/push.md's `push:` keys name them, against
/// one loopback stand-in that answers each service's paths as that service does: a member
/// offline on each kind of device gets exactly one notification per message, through the
/// service that reaches that device and no other.
@Suite struct EveryPushServiceTests {
    /// The path each service's send takes, by the counter that counts it.
    static let sends: [String: String] = [
        "apns": "/3/device/" + String(repeating: "ab", count: 32),
        "fcm": "/v1/projects/switchboard-test/messages:send",
        "huawei": "/v1/10086/messages:send",
        "honor": "/api/v1/104400/sendMessage",
        "xiaomi": "/v3/message/regid",
        "meizu": "/garcia/api/server/push/varnished/pushByPushId",
        "oppo": "/server/v1/message/notification/unicast",
        "vivo": "/message/send",
    ]

    static func answer(_ request: LoopbackHTTP2Server.Request) -> LoopbackHTTP2Server.Answer {
        let body = switch request.path {
        case "/oauth2/token": #"{"access_token":"token-1","expires_in":3600,"token_type":"Bearer"}"#
        case "/server/v1/auth": #"{"code":0,"message":"Success","data":{"auth_token":"oppo-token","create_time":1700000000000}}"#
        case "/message/auth": #"{"result":0,"desc":"请求成功","authToken":"vivo-token"}"#
        case sends["huawei"]: #"{"code":"80000000","msg":"Success","requestId":"1"}"#
        case sends["honor"]: #"{"code":200,"message":"success","data":{"sendResult":true,"requestId":"1"}}"#
        case sends["xiaomi"]: #"{"result":"ok","code":0,"data":{"id":"m1"},"description":"成功"}"#
        case sends["meizu"]: #"{"code":"200","message":"","redirect":"","value":{},"msgId":"m1"}"#
        case sends["oppo"]: #"{"code":0,"message":"Success","data":{"messageId":"m1"}}"#
        case sends["vivo"]: #"{"result":0,"desc":"请求成功","taskId":"1"}"#
        case sends["fcm"]: #"{"name":"projects/switchboard-test/messages/1"}"#
        default: ""
        }
        return .init(status: 200, body: body)
    }

    /// The config's `push:` section with every service pointed at the stand-in.
    static func config(standIn url: String, in directory: String) throws -> String {
        let roots = try TestCertificate.writeCertificate(in: directory)
        let appleKey = directory + "/AuthKey.p8"
        try P256.Signing.PrivateKey().pemRepresentation.write(toFile: appleKey, atomically: true, encoding: .utf8)
        let googleKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let account: JSONValue = [
            "type": "service_account", "project_id": "switchboard-test", "private_key_id": "key-1",
            "private_key": .string(googleKey.pkcs8PEMRepresentation), "client_email": "push@switchboard-test.iam.gserviceaccount.com",
            "token_uri": .string(url + "/oauth2/token"),
        ]
        try account.jsonString.write(toFile: directory + "/account.json", atomically: true, encoding: .utf8)
        let common = "trustRootsFile: \(roots), attempts: 1"
        let yaml = """
            push:
              apns: { keyFile: \(appleKey), keyId: KEY123, teamId: TEAM123, topic: com.example.chat, productionUrl: \(url), \(common) }
              fcm: { serviceAccountFile: \(directory)/account.json, sendUrl: \(url), \(common) }
              huawei: { appId: "10086", appSecret: s, tokenUrl: \(url)/oauth2/token, sendUrl: \(url), \(common) }
              honor: { appId: "104400", clientId: c, clientSecret: s, tokenUrl: \(url)/oauth2/token, sendUrl: \(url), \(common) }
              xiaomi: { appSecret: s, packageName: com.example.chat, channelId: chat, sendUrl: \(url), \(common) }
              meizu: { appId: "110000", appSecret: s, sendUrl: \(url), \(common) }
              oppo: { appKey: k, masterSecret: s, channelId: chat, baseUrl: \(url), \(common) }
              vivo: { appId: 10004, appKey: k, appSecret: s, baseUrl: \(url), \(common) }
            """
        let path = directory + "/switchboard.yaml"
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func eachOfflineDeviceGetsOneNotificationThroughItsOwnService() async throws {
        let standIn = try await LoopbackHTTP2Server.start(respond: Self.answer)
        let directory = TestServer.temporaryDirectory()
        let push = try ServerConfig.load(path: Self.config(standIn: "https://127.0.0.1:\(standIn.port)", in: directory))
        let server = try await TestServer.start { config in
            (config.apns, config.fcm, config.huawei, config.honor) = (push.apns, push.fcm, push.huawei, push.honor)
            (config.xiaomi, config.meizu, config.oppo, config.vivo) = (push.xiaomi, push.meizu, push.oppo, push.vivo)
        }
        // A member on each kind of device, saved as LeanCloud's SDKs save them.
        var members: [String] = []
        for (vendor, token) in [("fcm", "fcm-reg"), ("HMS", "hms-reg"), ("honor", "honor-reg"), ("mi", "mi-reg"), ("mz", "mz-reg"), ("oppo", "oppo-reg"), ("vivo", "vivo-reg")] {
            let member = "on-" + vendor.lowercased()
            try await server.installAndroidPhone(member, vendor: vendor, registrationID: token)
            members.append(member)
        }
        let (status, _) = try await server.rest(
            "POST", "/1.1/installations",
            body: ["deviceType": "ios", "deviceToken": String(repeating: "ab", count: 32), "channels": ["on-ios"]], key: server.config.appKey
        )
        #expect(status == 200)
        members.append("on-ios")

        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: members)
        for sent in 1...2 {
            _ = try await alice.sendText("message \(sent)", cid: cid)
            for (service, path) in Self.sends {
                #expect(try await server.metric(#"switchboard_push_\#(service)_total{outcome="sent"}"#, reaches: sent) == sent, "\(service)")
                #expect(try await standIn.requests(to: path, count: sent).count == sent, "\(service)")
            }
        }
        // Nothing went anywhere else: the sends, and each service's one token fetch at most.
        let paths = Set(Self.sends.values).union(["/oauth2/token", "/server/v1/auth", "/message/auth"])
        #expect(standIn.requests.filter { !paths.contains($0.path) }.map(\.path) == [])
        for (service, _) in Self.sends {
            for outcome in ["removed_token", "rejected", "failed", "dropped", "other_team"] {
                #expect(try await server.metric(#"switchboard_push_\#(service)_total{outcome="\#(outcome)"}"#) == 0, "\(service) \(outcome)")
            }
        }
        try await server.stop()
        try await standIn.stop()
    }
}
