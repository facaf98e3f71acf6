import Foundation
import SwitchboardJSON
import SwitchboardWire
import Testing

/// The Android SDK's own push channel: the first frame of every connection it opens is
/// `login` with its installation id, and a phone with no maker's push service gets its
/// pushes there as `data`, which it acknowledges. Paths are in java-unified-sdk
/// `realtime/src/main/java/cn/leancloud/`.
@Suite struct AndroidPushChannelTests {
    /// `login` as the SDK sends it when the connection opens (session/LCConnectionManager.java
    /// 338-348, command/LoginPacket.java 17-36, command/CommandPacket.java 50-62): `appId`,
    /// `installationId` and the device's `systemInfo`; no `i`, no `peerId`.
    static func login(_ installationID: String, appID: String) -> GenericCommand {
        var login = GenericCommand()
        login.cmd = .login
        login.appID = appID
        login.installationID = installationID
        var system = SystemInfo()
        system.deviceType = .android
        system.isEmulator = false
        system.androidVersion.apiLevel = "34"
        system.androidVersion.codename = "REL"
        system.osVersion.build = "Xiaomi/Redmi/23049RAD8C"
        login.loginMessage.systemInfo = system
        return login
    }

    /// The phone's installation as the SDK saves it: no `vendor`, no `registrationId`
    /// (core/.../LCInstallation.java), subscribed to its client's channel.
    static func install(_ installationID: String, for clientID: String, on server: TestServer) async throws {
        let (status, _) = try await server.rest(
            "POST", "/1.1/installations",
            body: ["deviceType": "android", "installationId": installationID, "timeZone": "Asia/Shanghai", "channels": [clientID]],
            key: server.config.appKey
        )
        #expect(status == 200 || status == 201)
    }

    /// A phone whose app is connected and whose client is not logged in gets the push of a
    /// message for that client as `data`; its ack is counted, and the socket stays open.
    @Test func aPhoneWithoutAMakersServiceGetsItsPushOverTheConnection() async throws {
        let server = try await TestServer.start()
        let installation = "7f3a9c1e5b2d4e6f8a0b1c2d3e4f5a6b"
        try await Self.install(installation, for: "bob", on: server)
        let phone = try await server.connect(.protobuf3)
        phone.send(Self.login(installation, appID: server.config.appID))
        // The SDK takes it for its push channel only with `service` present and 0
        // (LCConnectionManager.java 403-417).
        let loggedin = try await phone.next(timeout: .seconds(5), "loggedin") { $0.cmd == .loggedin }
        #expect(loggedin.hasService && loggedin.service == RealtimeService.push && !loggedin.loggedinMessage.pushDisabled)

        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        let sent = try await alice.sendText("are you there?", cid: cid)
        // The push listener reads `ids` and each `msg`'s `data` (push/LCPushMessageListener.java
        // 38-49); `data` goes to it unless `service` says LiveQuery (LCConnectionManager.java 394-402).
        let data = try await phone.next(timeout: .seconds(5), "data") { $0.cmd == .data }
        #expect(PhoneSDK.decodes(data) && !(data.hasService && data.service == RealtimeService.liveQuery))
        #expect(data.dataMessage.ids == [sent.uid] && data.dataMessage.msg.count == 1)
        let payload = try #require(try JSONValue(parsing: data.dataMessage.msg[0].data).objectValue)
        #expect(payload["alert"] == .string("New message"))

        // Its ack (LCPushMessageListener.java 51-53, im/WindTalker.java 74-79,
        // command/PushAckPacket.java 18-29): `installationId` and the ids, no `peerId`, no `i`.
        var ack = GenericCommand()
        ack.cmd = .ack
        ack.installationID = installation
        ack.ackMessage.ids = data.dataMessage.ids
        phone.send(ack)
        #expect(try await server.metric(#"switchboard_push_long_connection_total{outcome="acknowledged"}"#, reaches: 1) == 1)
        #expect(try await server.metric(#"switchboard_push_long_connection_total{outcome="sent"}"#) == 1)
        #expect(!phone.isClosed)
        #expect(phone.received { $0.cmd == .error }.isEmpty)
        try await server.stop()
    }

    /// A phone connected nowhere gets nothing later: LeanCloud made no offline push for such
    /// devices (their chat shares the connection); the message itself reaches the app at its
    /// next login. The push is not handed to the log provider either: the channel was its way.
    @Test func aPhoneConnectedNowhereIsCountedNotPushedLater() async throws {
        let server = try await TestServer.start()
        let installation = "5e0c2a4b6d8f1a3c5e7b9d0f2a4c6e8b"
        try await Self.install(installation, for: "bob", on: server)
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        _ = try await alice.sendText("nobody home", cid: cid)
        // Alone it knows; on PostgreSQL it hands the push to whichever other nodes there are.
        let missed = try await server.scrape(until: { $0 >= 1 }, timeout: .seconds(10)) {
            try await server.metric(#"switchboard_push_long_connection_total{outcome="not_connected"}"#)
                + server.metric(#"switchboard_push_long_connection_total{outcome="relayed"}"#)
        }
        #expect(missed == 1)

        let phone = try await server.connect(.protobuf3)
        phone.send(Self.login(installation, appID: server.config.appID))
        _ = try await phone.next(timeout: .seconds(5), "loggedin") { $0.cmd == .loggedin }
        let now = try await alice.sendText("now you are", cid: cid)
        let data = try await phone.next(timeout: .seconds(5), "data") { $0.cmd == .data }
        #expect(data.dataMessage.ids == [now.uid])
        #expect(phone.received { $0.cmd == .data }.isEmpty)
        let log = (try? String(contentsOfFile: server.config.pushLogPath, encoding: .utf8)) ?? ""
        #expect(!log.contains(installation))
        try await server.stop()
    }

    /// A push channel holds the connection open without an IM session: the login timeout
    /// that closes a connection that never logged in leaves it be.
    @Test func thePushLoginIsALoginForTheLoginTimeout() async throws {
        let server = try await TestServer.start { $0.loginTimeoutSeconds = 1 }
        let phone = try await server.connect(.protobuf3)
        phone.send(Self.login("1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f", appID: server.config.appID))
        _ = try await phone.next(timeout: .seconds(5), "loggedin") { $0.cmd == .loggedin }
        try await Task.sleep(for: .seconds(2.5))
        #expect(!phone.isClosed)
        try await server.stop()
    }
}
