import Crypto
import Foundation
import SwitchboardJSON
import SwitchboardServer
import SwitchboardWire
import Testing

/// The `apns` provider against a loopback HTTP/2 stand-in for Apple's push service, with a
/// `.p8` key made for the test.
@Suite struct APNsPushTests {
    static let bobsPhone = String(repeating: "ab", count: 32)
    static let bobsTablet = String(repeating: "cd", count: 32)

    struct Setup {
        let server: TestServer
        let apple: LoopbackHTTP2Server
        let key: P256.Signing.PrivateKey
    }

    /// `developmentKey`, when given, is the team's key for the sandbox (`KEYDEV`).
    func start(
        secondTeam: P256.Signing.PrivateKey? = nil, developmentKey: P256.Signing.PrivateKey? = nil,
        respond: @escaping @Sendable (LoopbackHTTP2Server.Request) -> LoopbackHTTP2Server.Answer = { _ in .init(status: 200) },
        configure: @escaping @Sendable (inout ServerConfig) -> Void = { _ in }
    ) async throws -> Setup {
        let apple = try await LoopbackHTTP2Server.start(respond: respond)
        let directory = TestServer.temporaryDirectory()
        let key = P256.Signing.PrivateKey()
        let keyFile = directory + "/AuthKey_KEY123.p8"
        try key.pemRepresentation.write(toFile: keyFile, atomically: true, encoding: .utf8)
        let trustRoots = try TestCertificate.writeCertificate(in: directory)
        let server = try await TestServer.start { config in
            var apns = APNsSettings(keyFile: keyFile, keyID: "KEY123", teamID: "TEAM123", topic: "com.example.chat")
            apns.productionURL = URL(string: "https://127.0.0.1:\(apple.port)")!
            apns.developmentURL = URL(string: "https://localhost:\(apple.port)/sandbox")!
            apns.trustRootsFile = trustRoots
            apns.firstRetry = .milliseconds(20)
            apns.busyRetry = .milliseconds(20)
            if let developmentKey {
                apns.developmentKeyFile = directory + "/AuthKey_KEYDEV.p8"
                apns.developmentKeyID = "KEYDEV"
                try? developmentKey.pemRepresentation.write(toFile: directory + "/AuthKey_KEYDEV.p8", atomically: true, encoding: .utf8)
            }
            config.apns = [apns]
            if let secondTeam {
                let secondKeyFile = directory + "/AuthKey_KEY456.p8"
                try? secondTeam.pemRepresentation.write(toFile: secondKeyFile, atomically: true, encoding: .utf8)
                var other = APNsSettings(keyFile: secondKeyFile, keyID: "KEY456", teamID: "TEAM456", topic: "com.example.other")
                other.productionURL = apns.productionURL
                other.trustRootsFile = trustRoots
                config.apns.append(other)
            }
            configure(&config)
        }
        return Setup(server: server, apple: apple, key: key)
    }

    /// The JWT's header and claims, after checking its ES256 signature with `key`.
    func verifiedJWT(_ authorization: String?, key: P256.Signing.PrivateKey) throws -> (header: JSONValue, claims: JSONValue) {
        let token = try #require(authorization?.split(separator: " ").last.map(String.init))
        let parts = token.split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        func decode(_ part: String) throws -> Data {
            try #require(Base64URL.decode(part))
        }
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: decode(parts[2]))
        #expect(key.publicKey.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8)))
        return (
            try JSONValue(parsing: String(decoding: decode(parts[0]), as: UTF8.self)),
            try JSONValue(parsing: String(decoding: decode(parts[1]), as: UTF8.self))
        )
    }

    @Test func anOfflineIOSMembersPushReachesAPNsAndTheRestTheLog() async throws {
        let setup = try await start()
        try await setup.server.registerDevice("bob", token: Self.bobsPhone, deviceID: Self.bobsPhone)
        try await setup.server.registerDevice("carol", token: "carols-android-installation", deviceID: "carols-android-installation")
        let alice = try await setup.server.login("alice")
        let cid = try await alice.startConversation(members: ["bob", "carol"])
        let first = try await alice.sendText("one", cid: cid)
        let requests = try await setup.apple.waitForRequests(1)

        let request = try #require(requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/3/device/\(Self.bobsPhone)")
        #expect(request.headers["apns-topic"] == "com.example.chat")
        #expect(request.headers["apns-push-type"] == "alert")
        #expect(request.headers["apns-priority"] == "10")
        #expect(request.headers["apns-expiration"] == String(first.t / 1000 + 7 * 24 * 3600))
        let jwt = try verifiedJWT(request.headers["authorization"], key: setup.key)
        #expect(jwt.header == .object(["alg": .string("ES256"), "kid": .string("KEY123")]))
        #expect(jwt.claims["iss"] == .string("TEAM123"))
        let issuedAt = try #require(jwt.claims["iat"]?.int64Value)
        #expect(abs(issuedAt - Int64(Date().timeIntervalSince1970)) < 60)
        // LeanCloud's default template: an alert and a badge that counts up.
        #expect(try JSONValue(parsing: request.body) == .object(["aps": .object(["alert": .string("New message"), "badge": .int(1)])]))

        // Carol's device is not an iPhone: her push goes to the configured log.
        let line = try #require(try await PushLog.lines(setup.server.config.pushLogPath, count: 1).first)
        #expect(line["recipients"] == .strings(["carol"]))

        _ = try await alice.sendText("two", cid: cid)
        let second = try await setup.apple.waitForRequests(2)[1]
        #expect(try JSONValue(parsing: second.body)["aps"]?["badge"] == .int(2))
        try await setup.server.stop()
        try await setup.apple.stop()
    }

    @Test func readingClearsTheBadgeAndProfileDevGoesToTheSandbox() async throws {
        let setup = try await start()
        try await setup.server.registerDevice("bob", token: Self.bobsPhone, deviceID: Self.bobsPhone)
        // The app also saved the phone as an installation, on no channel: its count is the
        // phone's too, and the read clears it as well.
        let (saved, _) = try await setup.server.rest(
            "POST", "/1.1/installations", body: ["deviceType": "ios", "deviceToken": Self.bobsPhone], key: setup.server.config.appKey
        )
        #expect(saved == 200)
        let alice = try await setup.server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        _ = try await alice.sendText("one", cid: cid)
        _ = try await setup.apple.waitForRequests(1)

        let bob = try await setup.server.login("bob")
        bob.send(.read(cid: cid, upTo: Int64(Date().timeIntervalSince1970 * 1000)))
        // A connection's commands are handled in order: once the echo is answered, so is the read.
        _ = try await bob.request(.echo)
        bob.close()
        try await bob.waitUntilClosed()

        var message = GenericCommand.text("two", cid: cid)
        message.directMessage.pushData = #"{"alert":"hi","title":"Alice","badge":"Increment","sound":"ping.caf","conversation":"x","_profile":"dev"}"#
        _ = try await alice.request(message)
        let request = try await setup.apple.waitForRequests(2)[1]
        #expect(request.path == "/sandbox/3/device/\(Self.bobsPhone)")
        #expect(try JSONValue(parsing: request.body) == .object([
            "aps": .object(["alert": .object(["title": .string("Alice"), "body": .string("hi")]), "badge": .int(1), "sound": .string("ping.caf")]),
            "conversation": .string("x"),
        ]))
        try await setup.server.stop()
        try await setup.apple.stop()
    }

    /// A phone two accounts logged in from gets one push for a message to both, not two
    /// (it showed the alert twice; both copies carried the same badge).
    @Test func aPhoneTwoRecipientsShareGetsOnePush() async throws {
        let setup = try await start()
        try await setup.server.registerDevice("bob", token: Self.bobsPhone, deviceID: Self.bobsPhone)
        try await setup.server.registerDevice("dave", token: Self.bobsPhone, deviceID: Self.bobsPhone)
        let alice = try await setup.server.login("alice")
        let cid = try await alice.startConversation(members: ["bob", "dave"])
        _ = try await alice.sendText("one", cid: cid)
        _ = try await setup.apple.waitForRequests(1)
        _ = try await alice.sendText("two", cid: cid)
        let requests = try await setup.apple.waitForRequests(2)
        #expect(try requests.prefix(2).map { try JSONValue(parsing: $0.body)["aps"]?["badge"] } == [.int(1), .int(2)])
        try await setup.server.stop()
        try await setup.apple.stop()
    }

    /// One server, two Apple teams: `_apns_team_id` picks the key and the app; a team with
    /// no key here gets nothing.
    @Test func apnsTeamIDChoosesTheKeyAndTheApp() async throws {
        let secondKey = P256.Signing.PrivateKey()
        let setup = try await start(secondTeam: secondKey)
        try await setup.server.registerDevice("bob", token: Self.bobsPhone, deviceID: Self.bobsPhone)
        let alice = try await setup.server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        for team in ["TEAM456", "TEAM999", "TEAM123"] {
            var message = GenericCommand.text("for \(team)", cid: cid)
            message.directMessage.pushData = #"{"alert":"hi","_apns_team_id":"\#(team)"}"#
            _ = try await alice.request(message)
        }
        let requests = try await setup.apple.waitForRequests(2)
        // The key-less team's push was decided, counted and not sent; the others have come.
        #expect(try await setup.server.metric(#"switchboard_push_apns_total{outcome="other_team"}"#, reaches: 1) == 1)
        #expect(setup.apple.requests.count == 2)
        let second = try #require(requests.first { $0.headers["apns-topic"] == "com.example.other" })
        let jwt = try verifiedJWT(second.headers["authorization"], key: secondKey)
        #expect(jwt.header["kid"] == "KEY456" && jwt.claims["iss"] == "TEAM456")
        let first = try #require(requests.first { $0.headers["apns-topic"] == "com.example.chat" })
        #expect(try verifiedJWT(first.headers["authorization"], key: setup.key).claims["iss"] == "TEAM123")
        try await setup.server.stop()
        try await setup.apple.stop()
    }

    /// The iOS SDKs report a token that comes after login with `report/upload`.
    @Test func aTokenReportedAfterLoginIsPushedTo() async throws {
        let setup = try await start()
        let bob = try await setup.server.login("bob")
        var report = GenericCommand()
        report.cmd = .report
        report.op = .upload
        report.reportMessage.initiative = true
        report.reportMessage.type = "token"
        report.reportMessage.data = Self.bobsPhone
        #expect(try await bob.request(report).op == .uploaded)
        report.reportMessage.type = "location"
        #expect(try await bob.request(report).errorMessage.code == 4114)
        bob.close()
        try await bob.waitUntilClosed()

        let alice = try await setup.server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        _ = try await alice.sendText("one", cid: cid)
        #expect(try await setup.apple.waitForRequests(1).first?.path == "/3/device/\(Self.bobsPhone)")
        try await setup.server.stop()
        try await setup.apple.stop()
    }

    /// Apps whose SDK saves an `_Installation` subscribed to the client's channel.
    @Test func anInstallationOnTheClientsChannelGetsItsPushesUntilItLeavesIt() async throws {
        let setup = try await start()
        let server = setup.server
        let (status, saved) = try await server.rest(
            "POST", "/1.1/installations", body: ["deviceType": "ios", "deviceToken": Self.bobsTablet, "channels": ["bob"], "timeZone": "UTC"],
            key: server.config.appKey
        )
        #expect(status == 200)
        let objectID = try #require(saved["objectId"] as? String)
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        _ = try await alice.sendText("one", cid: cid)
        #expect(try await setup.apple.waitForRequests(1).first?.path == "/3/device/\(Self.bobsTablet)")

        let (removed, _) = try await server.rest(
            "PUT", "/1.1/installations/\(objectID)", body: ["channels": ["__op": "Remove", "objects": ["bob"]]], key: server.config.appKey
        )
        #expect(removed == 200)
        _ = try await alice.sendText("two", cid: cid)
        // Bob has no device left: his push goes to the log, without a token.
        let line = try #require(try await PushLog.lines(server.config.pushLogPath, count: 1).first)
        #expect(line["recipients"] == .strings(["bob"]) && line["devices"] == .object([:]))
        #expect(setup.apple.requests.count == 1)
        try await setup.server.stop()
        try await setup.apple.stop()
    }

    @Test func theAPNsConfigIsChecked() throws {
        let directory = TestServer.temporaryDirectory()
        let file = directory + "/switchboard.yaml"
        let keyFile = directory + "/AuthKey.p8"
        try P256.Signing.PrivateKey().pemRepresentation.write(toFile: keyFile, atomically: true, encoding: .utf8)
        for bad in [
            "push:\n  apns:\n    keyFile: \(keyFile)\n    keyId: K\n    teamId: T\n",
            "push:\n  apns:\n    keyFile: \(directory)/missing.p8\n    keyId: K\n    teamId: T\n    topic: com.example\n",
            "push:\n  apns:\n    keyFile: \(keyFile)\n    keyId: K\n    teamId: T\n    topic: com.example\n    productionUrl: http://insecure\n",
        ] {
            try bad.write(toFile: file, atomically: true, encoding: .utf8)
            #expect(throws: ConfigError.self) { try ServerConfig.load(path: file) }
        }
        try "push:\n  provider: log\n  apns:\n    keyFile: \(keyFile)\n    keyId: K\n    teamId: T\n    topic: com.example\n    attempts: 3\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        var expected = APNsSettings(keyFile: keyFile, keyID: "K", teamID: "T", topic: "com.example")
        expected.attempts = 3
        #expect(try ServerConfig.load(path: file).apns == [expected])
        let second = "    - keyFile: \(keyFile)\n      keyId: K2\n      teamId: T2\n      topic: com.example.two\n"
        try "push:\n  apns:\n    - keyFile: \(keyFile)\n      keyId: K\n      teamId: T\n      topic: com.example\n      attempts: 3\n\(second)"
            .write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try ServerConfig.load(path: file).apns == [expected, APNsSettings(keyFile: keyFile, keyID: "K2", teamID: "T2", topic: "com.example.two")])
        try "push:\n  apns:\n\(second)\(second)".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(throws: ConfigError.self) { try ServerConfig.load(path: file) }
    }

    /// APNs refuses a provider token it thinks expired (a clock far off): the push is tried
    /// again with a newly signed one.
    @Test func anExpiredProviderTokenIsRenewedAndThePushTriedAgain() async throws {
        let answers = CallCounter()
        let setup = try await start { _ in
            answers.next() == 1 ? .init(status: 403, body: #"{"reason":"ExpiredProviderToken"}"#) : .init(status: 200)
        }
        try await setup.server.registerDevice("bob", token: Self.bobsPhone, deviceID: Self.bobsPhone)
        let alice = try await setup.server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        _ = try await alice.sendText("one", cid: cid)
        let requests = try await setup.apple.waitForRequests(2)
        let refused = requests[0].headers["authorization"], renewed = requests[1].headers["authorization"]
        #expect(refused != renewed)
        _ = try verifiedJWT(renewed, key: setup.key)
        #expect(try await setup.server.metric(#"switchboard_push_apns_total{outcome="sent"}"#, reaches: 1) == 1)
        #expect(try await setup.server.metric(#"switchboard_push_apns_total{outcome="rejected"}"#) == 0)
        try await setup.server.stop()
        try await setup.apple.stop()
    }

    /// Pushes for the webhook hang in a gateway that never answers; iPhones' pushes, in a
    /// queue of their own, still reach APNs at once.
    @Test func aWebhookThatNeverAnswersHoldsUpNoAPNsPush() async throws {
        let gateway = try await SilentGateway.start()
        let setup = try await start(configure: { config in
            config.pushProvider = .webhook(url: URL(string: "http://127.0.0.1:\(gateway.port)/push")!, attempts: 1, firstRetry: .seconds(1))
            config.shutdownDrainSeconds = 1
        })
        try await setup.server.registerDevice("bob", token: Self.bobsPhone, deviceID: Self.bobsPhone)
        let alice = try await setup.server.login("alice")
        let withCarol = try await alice.startConversation(members: ["carol"])
        // More than the queue's 16 workers, each held until the webhook's 10 s time-out.
        for number in 0..<20 { try await alice.sendText("m\(number)", cid: withCarol) }
        let withBob = try await alice.startConversation(members: ["bob"])
        _ = try await alice.sendText("hi", cid: withBob)
        #expect(try await setup.apple.waitForRequests(1, timeout: .seconds(5)).first?.path == "/3/device/\(Self.bobsPhone)")
        try await setup.server.stop()
        try await setup.apple.stop()
        await gateway.stop()
    }

    /// How Apple says a token is dead, and that it cannot take a push now.
    struct DeadAndBusy: Sendable, CustomTestStringConvertible {
        var dead: (status: Int, reason: String)
        var busy: (status: Int, reason: String)
        var testDescription: String { "\(dead.status) \(dead.reason), then \(busy.status) \(busy.reason)" }
    }

    @Test(arguments: [
        DeadAndBusy(dead: (410, "Unregistered"), busy: (429, "TooManyRequests")),
        DeadAndBusy(dead: (400, "BadDeviceToken"), busy: (500, "InternalServerError")),
        DeadAndBusy(dead: (400, "Unregistered"), busy: (503, "ServiceUnavailable")),
    ])
    func aDeadTokenIsRemovedAndABusyAnswerIsTriedAgain(_ answers: DeadAndBusy) async throws {
        let tabletAnswers = CallCounter()
        let setup = try await start { request in
            if request.path.hasSuffix(Self.bobsPhone) {
                return .init(status: answers.dead.status, body: #"{"reason":"\#(answers.dead.reason)"}"#)
            }
            return tabletAnswers.next() == 1 ? .init(status: answers.busy.status, body: #"{"reason":"\#(answers.busy.reason)"}"#) : .init(status: 200)
        }
        try await setup.server.registerDevice("bob", token: Self.bobsPhone, deviceID: Self.bobsPhone)
        try await setup.server.registerDevice("bob", token: Self.bobsTablet, deviceID: Self.bobsTablet)
        let alice = try await setup.server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        _ = try await alice.sendText("one", cid: cid)
        // BadDeviceToken is tried in the other environment before the token goes.
        let phoneRequests = answers.dead.reason == "BadDeviceToken" ? 2 : 1
        let first = try await setup.apple.waitForRequests(2 + phoneRequests)
        #expect(first.filter { $0.path.hasSuffix(Self.bobsPhone) }.count == phoneRequests)
        #expect(first.filter { $0.path.hasSuffix(Self.bobsTablet) }.count == 2)

        // The phone's token is gone: the next push goes to the tablet only.
        _ = try await setup.server.metric(#"switchboard_push_apns_total{outcome="removed_token"}"#, reaches: 1)
        _ = try await alice.sendText("two", cid: cid)
        let all = try await setup.apple.waitForRequests(3 + phoneRequests)
        // One device's outcome each: the phone's removal and the tablet's two pushes. With
        // them counted, no request is still to come.
        #expect(try await setup.server.pushOutcomes("apns", addingUpTo: 3) == ["sent": 2, "removed_token": 1])
        #expect(setup.apple.requests.count == 3 + phoneRequests)
        #expect(all[2 + phoneRequests].path.hasSuffix(Self.bobsTablet))
        try await setup.server.stop()
        try await setup.apple.stop()
    }
}
