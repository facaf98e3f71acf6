import Crypto
import Foundation
import SwitchboardJSON
import SwitchboardServer
import SwitchboardWire
import Testing

/// APNs' answers as Apple's "Handling notification responses from APNs" describes them, and
/// what the provider does with each: the other environment for `BadDeviceToken`, no more
/// pushes for a token not for the topic, no payload over the size APNs takes, long waits
/// after 5xx that hold up nothing else; and a key for each environment.
extension APNsPushTests {
    private static let carolsPhone = String(repeating: "ef", count: 32)

    /// A development build's token is "bad" in production: the sandbox, with the team's
    /// development key, takes it, and takes the token's later pushes at once. A token bad in
    /// both is forgotten.
    @Test func aTokenBadInProductionGoesToTheSandboxFromThenOn() async throws {
        let developmentKey = P256.Signing.PrivateKey()
        let setup = try await start(developmentKey: developmentKey) { request in
            // The phone's token is a sandbox one; the tablet's is no token at all.
            if request.path == "/sandbox/3/device/\(Self.bobsPhone)" { return .init(status: 200) }
            return .init(status: 400, body: #"{"reason":"BadDeviceToken"}"#)
        }
        try await setup.server.registerDevice("bob", token: Self.bobsPhone, deviceID: Self.bobsPhone)
        try await setup.server.registerDevice("bob", token: Self.bobsTablet, deviceID: Self.bobsTablet)
        let alice = try await setup.server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        _ = try await alice.sendText("one", cid: cid)
        let first = try await setup.apple.waitForRequests(4)
        #expect(Set(first.map(\.path)) == [
            "/3/device/\(Self.bobsPhone)", "/sandbox/3/device/\(Self.bobsPhone)", "/3/device/\(Self.bobsTablet)", "/sandbox/3/device/\(Self.bobsTablet)",
        ])
        // Each environment's request is signed with that environment's key.
        for request in first {
            let sandbox = request.path.hasPrefix("/sandbox/")
            let jwt = try verifiedJWT(request.headers["authorization"], key: sandbox ? developmentKey : setup.key)
            #expect(jwt.header["kid"] == .string(sandbox ? "KEYDEV" : "KEY123") && jwt.claims["iss"] == "TEAM123")
        }
        #expect(try await setup.server.metric(#"switchboard_push_apns_total{outcome="removed_token"}"#, reaches: 1) == 1)

        _ = try await alice.sendText("two", cid: cid)
        let all = try await setup.apple.waitForRequests(5)
        // Every push counted, so none is still to be sent (to production, say).
        #expect(try await setup.server.pushOutcomes("apns", addingUpTo: 3) == ["sent": 2, "removed_token": 1])
        #expect(setup.apple.requests.count == 5)
        #expect(all[4].path == "/sandbox/3/device/\(Self.bobsPhone)")
        try await setup.server.stop()
        try await setup.apple.stop()
    }

    /// Another app's token (`DeviceTokenNotForTopic`) is refused once, kept, and not pushed
    /// this app's pushes again.
    @Test func aTokenNotForTheTopicIsRefusedOnceAndLeftAlone() async throws {
        let setup = try await start { request in
            request.path.hasSuffix(Self.bobsPhone) ? .init(status: 400, body: #"{"reason":"DeviceTokenNotForTopic"}"#) : .init(status: 200)
        }
        try await setup.server.registerDevice("bob", token: Self.bobsPhone, deviceID: Self.bobsPhone)
        try await setup.server.registerDevice("bob", token: Self.bobsTablet, deviceID: Self.bobsTablet)
        let alice = try await setup.server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        _ = try await alice.sendText("one", cid: cid)
        #expect(try await setup.server.metric(#"switchboard_push_apns_total{outcome="rejected"}"#, reaches: 1) == 1)
        _ = try await alice.sendText("two", cid: cid)
        _ = try await setup.apple.waitForRequests(3)
        // The tablet's second push counted; the phone's was neither sent nor counted.
        #expect(try await setup.server.pushOutcomes("apns", addingUpTo: 3) == ["sent": 2, "rejected": 1])
        #expect(setup.apple.requests.filter { $0.path.hasSuffix(Self.bobsPhone) }.count == 1)
        #expect(setup.apple.requests.filter { $0.path.hasSuffix(Self.bobsTablet) }.count == 2)
        try await setup.server.stop()
        try await setup.apple.stop()
    }

    /// APNs takes 4 KB (5 KB for VoIP): a larger payload is counted, not sent.
    @Test func aPayloadLargerThanAPNsTakesIsNotSent() async throws {
        let setup = try await start()
        try await setup.server.registerDevice("bob", token: Self.bobsPhone, deviceID: Self.bobsPhone)
        let alice = try await setup.server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        var large = GenericCommand.text("large", cid: cid)
        large.directMessage.pushData = JSONValue.object(["alert": .string(String(repeating: "x", count: 4100))]).jsonString
        _ = try await alice.request(large)
        #expect(try await setup.server.metric(#"switchboard_push_apns_total{outcome="too_large"}"#, reaches: 1) == 1)
        var voip = GenericCommand.text("call", cid: cid)
        voip.directMessage.pushData = JSONValue.object([
            "apns-push-type": "voip", "aps": .object([:]), "offer": .string(String(repeating: "x", count: 4500)),
        ]).jsonString
        _ = try await alice.request(voip)
        let request = try #require(try await setup.apple.waitForRequests(1).first)
        #expect(request.headers["apns-push-type"] == "voip" && request.body.utf8.count > 4096)
        #expect(try await setup.server.pushOutcomes("apns", addingUpTo: 2) == ["sent": 1, "too_large": 1])
        #expect(setup.apple.requests.count == 1)
        try await setup.server.stop()
        try await setup.apple.stop()
    }

    /// A 5xx is asked again only after `busyRetry` (here far longer than the test), not after
    /// `firstRetry`'s 20 ms; the pushes waiting meanwhile hold none of the queue's 16
    /// workers, so a later push to someone else goes at once.
    @Test func aFailingAPNsIsAskedAgainMuchLaterAndHoldsUpNoOtherPush() async throws {
        let setup = try await start(
            respond: { request in
                request.path.hasSuffix(Self.bobsPhone) ? .init(status: 500, body: #"{"reason":"InternalServerError"}"#) : .init(status: 200)
            },
            configure: { config in config.apns[0].busyRetry = .seconds(60) }
        )
        try await setup.server.registerDevice("bob", token: Self.bobsPhone, deviceID: Self.bobsPhone)
        try await setup.server.registerDevice("carol", token: Self.carolsPhone, deviceID: Self.carolsPhone)
        let alice = try await setup.server.login("alice")
        let withBob = try await alice.startConversation(members: ["bob"])
        for number in 0..<20 { _ = try await alice.sendText("m\(number)", cid: withBob) }
        let withCarol = try await alice.startConversation(members: ["carol"])
        _ = try await alice.sendText("hi", cid: withCarol)
        func requests(to token: String) -> [LoopbackHTTP2Server.Request] {
            setup.apple.requests.filter { $0.path.hasSuffix(token) }
        }
        _ = try await setup.apple.requests(
            until: { requests in requests.contains { $0.path.hasSuffix(Self.carolsPhone) } && requests.count { $0.path.hasSuffix(Self.bobsPhone) } >= 20 },
            "Carol's push and Bob's 20"
        )
        #expect(requests(to: Self.carolsPhone).count == 1)
        #expect(try await setup.server.metric(#"switchboard_push_apns_total{outcome="sent"}"#, reaches: 1) == 1)
        // Time, not an event: a try after firstRetry's 20 ms would have come by now. The retry
        // waits sleep on the system's clock (PushRetryWaits), which a test cannot move.
        try await Task.sleep(for: .milliseconds(200))
        // Bob's pushes were each tried once: no body (each its own badge) came twice.
        let bobs = requests(to: Self.bobsPhone)
        #expect(bobs.count == 20 && Set(bobs.map(\.body)).count == 20)
        #expect(try await setup.server.metric(#"switchboard_push_apns_total{outcome="failed"}"#) == 0)
        // Their waits end with the server, at once.
        try await setup.server.stop()
        try await setup.apple.stop()
    }

    @Test func aKeyForEachEnvironmentIsConfigured() throws {
        let directory = TestServer.temporaryDirectory()
        let file = directory + "/switchboard.yaml"
        let keyFile = directory + "/AuthKey.p8", developmentKeyFile = directory + "/AuthKey_DEV.p8"
        for path in [keyFile, developmentKeyFile] {
            try P256.Signing.PrivateKey().pemRepresentation.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let team = "push:\n  apns:\n    keyFile: \(keyFile)\n    keyId: K\n    teamId: T\n    topic: com.example\n"
        try (team + "    developmentKeyFile: \(developmentKeyFile)\n    developmentKeyId: KD\n    busyRetryMs: 120000\n")
            .write(toFile: file, atomically: true, encoding: .utf8)
        var expected = APNsSettings(keyFile: keyFile, keyID: "K", teamID: "T", topic: "com.example")
        expected.developmentKeyFile = developmentKeyFile
        expected.developmentKeyID = "KD"
        expected.busyRetry = .seconds(120)
        #expect(try ServerConfig.load(path: file).apns == [expected])
        for bad in ["    developmentKeyFile: \(developmentKeyFile)\n", "    developmentKeyId: KD\n", "    developmentKeyFile: \(directory)/missing.p8\n    developmentKeyId: KD\n"] {
            try (team + bad).write(toFile: file, atomically: true, encoding: .utf8)
            #expect(throws: ConfigError.self) { try ServerConfig.load(path: file) }
        }
    }
}
