import Crypto
import CryptoExtras
import Foundation
import Synchronization
import SwitchboardJSON
@testable import SwitchboardServer
import SwitchboardWire
import Testing

/// The `fcm` provider against a loopback HTTP/2 stand-in that plays both Google's token
/// endpoint and FCM's send endpoint, with a service account key made for the test.
@Suite struct FCMPushTests {
    private static let sendPath = "/v1/projects/switchboard-test/messages:send"

    private struct Setup {
        let server: TestServer
        let google: LoopbackHTTP2Server
        /// Apple's stand-in, when the server pushes to APNs too.
        let apple: LoopbackHTTP2Server?
        let key: _RSA.Signing.PrivateKey
    }

    /// `respond` answers sends; the token endpoint hands out `token-1`, `token-2`, … .
    private func start(
        apns: Bool = false, tokenLifetime: Int = 3599, respond: @escaping @Sendable (LoopbackHTTP2Server.Request) -> LoopbackHTTP2Server.Answer = { _ in .init(status: 200) }
    ) async throws -> Setup {
        let tokens = CallCounter()
        let google = try await LoopbackHTTP2Server.start { request in
            guard request.path == "/token" else { return respond(request) }
            return .init(status: 200, body: #"{"access_token":"token-\#(tokens.next())","expires_in":\#(tokenLifetime),"token_type":"Bearer"}"#)
        }
        let directory = TestServer.temporaryDirectory()
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let accountFile = directory + "/service-account.json"
        let account: JSONValue = [
            "type": "service_account", "project_id": "switchboard-test", "private_key_id": "key-1",
            "private_key": .string(key.pkcs8PEMRepresentation), "client_email": "push@switchboard-test.iam.gserviceaccount.com",
            "token_uri": .string("https://127.0.0.1:\(google.port)/token"),
        ]
        try account.jsonString.write(toFile: accountFile, atomically: true, encoding: .utf8)
        let trustRoots = try TestCertificate.writeCertificate(in: directory)
        let appleKey = directory + "/AuthKey.p8"
        try P256.Signing.PrivateKey().pemRepresentation.write(toFile: appleKey, atomically: true, encoding: .utf8)
        let apple = apns ? try await LoopbackHTTP2Server.start() : nil
        let server = try await TestServer.start { config in
            var fcm = FCMSettings(serviceAccountFile: accountFile)
            fcm.sendURL = URL(string: "https://127.0.0.1:\(google.port)")!
            fcm.trustRootsFile = trustRoots
            fcm.firstRetry = .milliseconds(20)
            config.fcm = fcm
            if let apple {
                var settings = APNsSettings(keyFile: appleKey, keyID: "KEY123", teamID: "TEAM123", topic: "com.example.chat")
                settings.productionURL = URL(string: "https://127.0.0.1:\(apple.port)")!
                settings.trustRootsFile = trustRoots
                config.apns = [settings]
            }
        }
        return Setup(server: server, google: google, apple: apple, key: key)
    }

    /// Saves an Android installation on FCM subscribed to `clientID`'s channel.
    private func installAndroid(_ clientID: String, registrationID: String, on server: TestServer) async throws {
        let (status, _) = try await server.rest(
            "POST", "/1.1/installations",
            body: ["deviceType": "android", "installationId": "\(clientID)-installation", "vendor": "fcm", "registrationId": registrationID, "channels": [clientID]],
            key: server.config.appKey
        )
        #expect(status == 200)
    }

    private func sends(_ google: LoopbackHTTP2Server, count: Int) async throws -> [LoopbackHTTP2Server.Request] {
        try await google.requests(to: Self.sendPath, count: count)
    }

    @Test func iOSGoesToAPNsAndroidToFCMAndTheRestToTheLog() async throws {
        let setup = try await start(apns: true)
        let server = setup.server
        try await server.registerDevice("bob", token: String(repeating: "ab", count: 32))
        try await installAndroid("carol", registrationID: "carols-fcm-token", on: server)
        // Carol's SDK also logs in with its installation id: still one push, by FCM token.
        try await server.registerDevice("carol", token: "carol-installation")
        try await server.registerDevice("dave", token: "daves-other-phone")
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob", "carol", "dave"])
        let sent = try await alice.sendText("hi", cid: cid)

        let send = try #require(try await sends(setup.google, count: 1).first)
        #expect(send.method == "POST" && send.headers["authorization"] == "Bearer token-1")
        let message = try #require(try JSONValue(parsing: send.body)["message"])
        #expect(message["token"] == "carols-fcm-token")
        #expect(message["notification"] == ["body": "New message"])
        // Counting the badge up is APNs': the words "Increment" are nothing for an app to show.
        #expect(message["data"] == ["alert": "New message"])
        #expect(message["android"]?["notification"] == nil)
        #expect(message["android"]?["priority"] == "high")
        let ttl = try #require(message["android"]?["ttl"]?.stringValue?.dropLast()).flatMap { Int64($0) }
        #expect(ttl.map { abs($0 - (sent.t + 7 * 24 * 3600 * 1000 - Int64(Date().timeIntervalSince1970 * 1000)) / 1000) < 60 } == true)

        // The access token came from the token endpoint with a signed assertion.
        let tokenRequest = try #require(setup.google.requests.first { $0.path == "/token" })
        let form = Dictionary(uniqueKeysWithValues: tokenRequest.body.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        })
        #expect(form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer")
        let claims = try verifiedAssertion(try #require(form["assertion"]), key: setup.key)
        #expect(claims["iss"] == "push@switchboard-test.iam.gserviceaccount.com")
        #expect(claims["scope"] == "https://www.googleapis.com/auth/firebase.messaging")
        #expect(claims["aud"] == .string("https://127.0.0.1:\(setup.google.port)/token"))
        let issuedAt = try #require(claims["iat"]?.int64Value)
        #expect(claims["exp"]?.int64Value == issuedAt + 3600 && abs(issuedAt - Int64(Date().timeIntervalSince1970)) < 60)

        let apple = try #require(setup.apple)
        #expect(try await apple.waitForRequests(1).first?.path == "/3/device/" + String(repeating: "ab", count: 32))
        let line = try #require(try await PushLog.lines(server.config.pushLogPath, count: 1).first)
        #expect(line["recipients"] == .strings(["dave"]) && line["devices"] == ["dave": ["daves-other-phone"]])

        // The access token is kept for the next push.
        _ = try await alice.sendText("again", cid: cid)
        let second = try await sends(setup.google, count: 2)[1]
        #expect(second.headers["authorization"] == "Bearer token-1")
        #expect(setup.google.requests.filter { $0.path == "/token" }.count == 1)
        try await server.stop()
        try await setup.google.stop()
        try await apple.stop()
    }

    @Test func deadTokensAreRemovedAndFailuresTriedAgain() async throws {
        let busy = CallCounter(), stale = CallCounter()
        let setup = try await start { request in
            let token = (try? JSONValue(parsing: request.body))?["message"]?["token"]?.stringValue
            switch token {
            case "gone":
                return .init(status: 404, body: Self.error(404, "NOT_FOUND", code: "UNREGISTERED", "Requested entity was not found."))
            case "garbled":
                return .init(status: 400, body: Self.error(400, "INVALID_ARGUMENT", code: "INVALID_ARGUMENT", "The registration token is not a valid FCM registration token"))
            case "busy" where busy.next() == 1:
                return .init(status: 429, body: Self.error(429, "RESOURCE_EXHAUSTED", code: "QUOTA_EXCEEDED", "Quota exceeded."))
            case "stale" where stale.next() == 1:
                return .init(status: 401, body: Self.error(401, "UNAUTHENTICATED", code: nil, "Request had invalid authentication credentials."))
            default:
                return .init(status: 200, body: #"{"name":"projects/switchboard-test/messages/1"}"#)
            }
        }
        for (client, token) in [("bob", "gone"), ("carol", "garbled"), ("dave", "busy"), ("erin", "stale")] {
            try await installAndroid(client, registrationID: token, on: setup.server)
        }
        let alice = try await setup.server.login("alice")
        let cid = try await alice.startConversation(members: ["bob", "carol", "dave", "erin"])
        _ = try await alice.sendText("one", cid: cid)
        let first = try await sends(setup.google, count: 6)
        func tokens(_ requests: [LoopbackHTTP2Server.Request]) -> [String] {
            requests.compactMap { (try? JSONValue(parsing: $0.body))?["message"]?["token"]?.stringValue }.sorted()
        }
        #expect(tokens(first) == ["busy", "busy", "garbled", "gone", "stale", "stale"])
        // The 401 cost the access token: the retry fetched another.
        #expect(first.last { tokens([$0]) == ["stale"] }?.headers["authorization"] == "Bearer token-2")

        // The two dead tokens are gone before the next push looks devices up.
        _ = try await setup.server.metric(#"switchboard_push_fcm_total{outcome="removed_token"}"#, reaches: 2)
        _ = try await alice.sendText("two", cid: cid)
        let all = try await sends(setup.google, count: 8)
        // Every device's push counted: no send is still to come.
        #expect(try await setup.server.pushOutcomes("fcm", addingUpTo: 6) == ["sent": 4, "removed_token": 2])
        #expect(tokens(Array(all.dropFirst(6))) == ["busy", "stale"])
        #expect(setup.google.requests.filter { $0.path == Self.sendPath }.count == 8)
        try await setup.server.stop()
        try await setup.google.stop()
    }

    /// An access token is renewed before Google says it expires (here after half its one
    /// second, since the usual five minutes' margin is longer than that).
    @Test func anExpiringAccessTokenIsRenewed() async throws {
        let setup = try await start(tokenLifetime: 1)
        try await installAndroid("carol", registrationID: "carols-fcm-token", on: setup.server)
        let alice = try await setup.server.login("alice")
        let cid = try await alice.startConversation(members: ["carol"])
        _ = try await alice.sendText("one", cid: cid)
        #expect(try await sends(setup.google, count: 1)[0].headers["authorization"] == "Bearer token-1")
        // Past the token's renewal (half its second): PushAccessToken reads the system's clock.
        try await Task.sleep(for: .milliseconds(700))
        _ = try await alice.sendText("two", cid: cid)
        #expect(try await sends(setup.google, count: 2)[1].headers["authorization"] == "Bearer token-2")
        try await setup.server.stop()
        try await setup.google.stop()
    }

    /// LeanCloud's Android data: `silent` makes a data message; every value goes as text.
    @Test func androidDataBecomesAnFCMMessage() {
        let now: Int64 = 1_800_000_000_000
        let silent = FCMMessage.body(
            token: "t", payload: ["ios": ["alert": "for iPhones"], "android": ["alert": "hi", "silent": true, "priority": "normal", "count": 3, "from": "x"]],
            sentAt: now - 1000, now: now
        )
        #expect(silent == ["message": [
            "token": "t", "android": ["priority": "normal", "ttl": "604799s"],
            "data": ["alert": "hi", "silent": "true", "count": "3"],
        ]])
        let shown = FCMMessage.body(token: "t", payload: ["title": "Alice", "alert": "hello", "ios": ["badge": 1]], sentAt: now, now: now)
        #expect(shown["message"]?["notification"] == ["title": "Alice", "body": "hello"])
        #expect(shown["message"]?["data"] == ["title": "Alice", "alert": "hello"])
    }

    /// LeanCloud's `sound`, `collapse-id` and a number `badge` become FCM's Android fields;
    /// an `alert` with a title and a body makes both.
    @Test func soundCollapseIDAndBadgeBecomeAndroidFields() {
        let now: Int64 = 1_800_000_000_000
        let message = FCMMessage.body(
            token: "t", payload: ["alert": ["title": "Alice", "body": "hello"], "sound": "ping", "collapse-id": "chat-1", "badge": 3, "conversation": "c1"],
            sentAt: now, now: now
        )["message"]
        #expect(message?["notification"] == ["title": "Alice", "body": "hello"])
        #expect(message?["android"] == [
            "priority": "high", "ttl": "604800s", "collapse_key": "chat-1", "notification": ["sound": "ping", "notification_count": 3],
        ])
        #expect(message?["data"] == [
            "alert": .string(#"{"body":"hello","title":"Alice"}"#), "sound": "ping", "badge": "3", "conversation": "c1",
        ])
        // A data message has no notification to carry a sound or a count; it still collapses.
        let silent = FCMMessage.body(token: "t", payload: ["silent": true, "sound": "ping", "badge": 3, "collapse-id": "chat-1"], sentAt: now, now: now)
        #expect(silent["message"]?["android"] == ["priority": "high", "ttl": "604800s", "collapse_key": "chat-1"])
    }

    /// FCM's 503 and 429 say when to come back (`Retry-After`): not sooner, though the
    /// backoff here starts at 20 ms.
    @Test func retryAfterIsWaitedFor() async throws {
        let answers = CallCounter()
        let setup = try await start { _ in
            answers.next() == 1
                ? .init(status: 503, body: Self.error(503, "UNAVAILABLE", code: "UNAVAILABLE", "The service is currently unavailable."), headers: ["retry-after": "3"])
                : .init(status: 200, body: #"{"name":"projects/switchboard-test/messages/1"}"#)
        }
        try await installAndroid("carol", registrationID: "carols-fcm-token", on: setup.server)
        let alice = try await setup.server.login("alice")
        let cid = try await alice.startConversation(members: ["carol"])
        _ = try await alice.sendText("one", cid: cid)
        _ = try await sends(setup.google, count: 1)
        // Time, not an event: a try after the 20 ms backoff would have come by now. The retry
        // waits sleep on the system's clock (PushRetryWaits), which a test cannot move.
        try await Task.sleep(for: .milliseconds(500))
        #expect(setup.google.requests.filter { $0.path == Self.sendPath }.count == 1)
        _ = try await sends(setup.google, count: 2)
        #expect(try await setup.server.metric(#"switchboard_push_fcm_total{outcome="sent"}"#, reaches: 1) == 1)
        try await setup.server.stop()
        try await setup.google.stop()
    }

    /// FCM refuses data over 4096 bytes (keys and values) on every device: it is not sent.
    @Test func dataLargerThanFCMTakesIsNotSent() async throws {
        let setup = try await start()
        try await installAndroid("carol", registrationID: "carols-fcm-token", on: setup.server)
        let alice = try await setup.server.login("alice")
        let cid = try await alice.startConversation(members: ["carol"])
        var large = GenericCommand.text("large", cid: cid)
        large.directMessage.pushData = JSONValue.object(["alert": "hi", "attachment": .string(String(repeating: "x", count: 4090))]).jsonString
        _ = try await alice.request(large)
        #expect(try await setup.server.metric(#"switchboard_push_fcm_total{outcome="too_large"}"#, reaches: 1) == 1)
        _ = try await alice.sendText("small", cid: cid)
        _ = try await sends(setup.google, count: 1)
        #expect(try await setup.server.pushOutcomes("fcm", addingUpTo: 2) == ["sent": 1, "too_large": 1])
        #expect(setup.google.requests.filter { $0.path == Self.sendPath }.count == 1)
        try await setup.server.stop()
        try await setup.google.stop()
    }

    @Test func theFCMConfigIsChecked() throws {
        let directory = TestServer.temporaryDirectory()
        let file = directory + "/switchboard.yaml"
        let accountFile = directory + "/account.json"
        try "{}".write(toFile: accountFile, atomically: true, encoding: .utf8)
        for bad in [
            "push:\n  fcm:\n    sendUrl: https://fcm.googleapis.com\n",
            "push:\n  fcm:\n    serviceAccountFile: \(directory)/missing.json\n",
            "push:\n  fcm:\n    serviceAccountFile: \(accountFile)\n    sendUrl: http://insecure\n",
        ] {
            try bad.write(toFile: file, atomically: true, encoding: .utf8)
            #expect(throws: ConfigError.self) { try ServerConfig.load(path: file) }
        }
        try "push:\n  fcm:\n    serviceAccountFile: \(accountFile)\n    attempts: 2\n".write(toFile: file, atomically: true, encoding: .utf8)
        var expected = FCMSettings(serviceAccountFile: accountFile)
        expected.attempts = 2
        #expect(try ServerConfig.load(path: file).fcm == expected)
        // A file that is not a service account key stops the server at start, saying why.
        #expect(throws: ConfigError.self) { try FCMServiceAccount(file: accountFile) }
    }

    private static func error(_ status: Int, _ name: String, code: String?, _ message: String) -> String {
        var error: JSONValue = ["code": .int(Int64(status)), "message": .string(message), "status": .string(name)]
        if let code, case .object(var object) = error {
            object["details"] = [["@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": .string(code)]]
            error = .object(object)
        }
        return JSONValue.object(["error": error]).jsonString
    }

    /// The assertion's claims, after checking its RS256 signature with `key`.
    private func verifiedAssertion(_ jwt: String, key: _RSA.Signing.PrivateKey) throws -> JSONValue {
        let parts = jwt.split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        let header = try JSONValue(parsing: String(decoding: try #require(Base64URL.decode(parts[0])), as: UTF8.self))
        #expect(header == ["alg": "RS256", "typ": "JWT", "kid": "key-1"])
        let signature = _RSA.Signing.RSASignature(rawRepresentation: try #require(Base64URL.decode(parts[2])))
        #expect(key.publicKey.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8), padding: .insecurePKCS1v1_5))
        return try JSONValue(parsing: String(decoding: try #require(Base64URL.decode(parts[1])), as: UTF8.self))
    }
}
