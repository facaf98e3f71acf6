import SwitchboardCore
import SwitchboardWire
import Testing

/// Logins, session tokens, tags and logouts: what the core decides, on the core alone. What
/// the transport does with a connection's time and end (login and idle timeouts, goaway at
/// shutdown) and the per-connection client limit run on a whole server, below.
@Suite struct SessionTests {
    @Test func loginAnswersOpenedWithTokenAndPeer() async throws {
        let server = try await CoreHarness.start()
        let client = server.connect()
        let reply = try await client.request(.open("alice", appID: server.config.appID))
        #expect(reply.cmd == .session && reply.op == .opened)
        #expect(reply.peerID == "alice")
        #expect(!reply.sessionMessage.st.isEmpty)
        #expect(reply.sessionMessage.stTtl > 0)
        await server.stop()
    }

    @Test func wrongAppIsRefusedWith4100() async throws {
        let server = try await CoreHarness.start()
        let client = server.connect()
        let reply = try await client.request(.open("alice", appID: "someone-else"))
        #expect(reply.op == .closed)
        #expect(reply.sessionMessage.code == 4100)
        #expect(reply.sessionMessage.reason == "APP_NOT_AVAILABLE")
        await server.stop()
    }

    /// The SDK's `createIMClient()` without an id: the server gives one, as LeanCloud does.
    @Test func aLoginWithoutAnIdIsGivenOne() async throws {
        let server = try await CoreHarness.start()
        let first = server.connect()
        let opened = try await first.request(.open("", appID: server.config.appID))
        #expect(opened.op == .opened && opened.peerID.count == 20)
        let second = server.connect()
        let other = try await second.request(.open("", appID: server.config.appID))
        #expect(other.op == .opened && other.peerID != opened.peerID)
        // The id works like any other: the first starts a conversation with the second.
        let cid = try await first.startConversation(members: [other.peerID])
        _ = try await first.sendText("hi", cid: cid)
        #expect(try await second.nextMessage().fromPeerID == opened.peerID)
        await server.stop()

        let signed = try await CoreHarness.start { $0.signaturesRequired = true }
        let refused = try await signed.connect().request(.open("", appID: signed.config.appID))
        #expect(refused.op == .closed && refused.sessionMessage.code == 4103)
        await signed.stop()
    }

    /// A reconnecting SDK sends its token; 4112 makes it drop a stale one and log in again.
    @Test func aStaleSessionTokenIsRefusedWith4112() async throws {
        let server = try await CoreHarness.start()
        let client = server.connect()
        let token = try await client.request(.open("alice", appID: server.config.appID)).sessionMessage.st
        var again = GenericCommand.open("alice", appID: server.config.appID)
        again.sessionMessage.r = true
        again.sessionMessage.st = token
        #expect(try await client.request(again).op == .opened)
        for stale in ["1.AAAA", token.replacingOccurrences(of: ".", with: "0."), "garbage"] {
            again.sessionMessage.st = stale
            let refused = try await client.request(again)
            #expect(refused.cmd == .error && refused.errorMessage.code == 4112, "\(stale)")
        }
        // Another client's token is not this one's.
        again.peerID = "bob"
        again.sessionMessage.st = token
        #expect(try await client.request(again).errorMessage.code == 4112)
        await server.stop()
    }

    @Test func clientIDOver64CharactersIsRefusedWith4103() async throws {
        let server = try await CoreHarness.start()
        let client = server.connect()
        let tooLong = try await client.request(.open(String(repeating: "a", count: 65), appID: server.config.appID))
        #expect(tooLong.sessionMessage.code == 4103)
        let longest = try await client.request(.open(String(repeating: "a", count: 64), appID: server.config.appID))
        #expect(longest.op == .opened)
        await server.stop()
    }

    @Test func signaturesAreCheckedWhenRequired() async throws {
        let server = try await CoreHarness.start { $0.signaturesRequired = true }
        let client = server.connect()
        let now = server.clock.now() / 1000
        let unsigned = try await client.request(.open("alice", appID: server.config.appID))
        #expect(unsigned.sessionMessage.code == 4102)
        let forged = try await client.request(.open("alice", appID: server.config.appID, signature: (now, "n1", "0000")))
        #expect(forged.sessionMessage.code == 4102)
        let signer = Signature(appID: server.config.appID, masterKey: server.config.masterKey)
        let stale = try await client.request(.open(
            "alice", appID: server.config.appID, signature: (now - 25_200, "n1", signer.login(clientID: "alice", timestamp: now - 25_200, nonce: "n1"))
        ))
        #expect(stale.sessionMessage.code == 4102)
        let good = try await client.request(.open(
            "alice", appID: server.config.appID, signature: (now, "n1", signer.login(clientID: "alice", timestamp: now, nonce: "n1"))
        ))
        #expect(good.op == .opened)
        await server.stop()
    }

    @Test func commandsBeforeLoginNeedASession() async throws {
        let server = try await CoreHarness.start()
        let client = server.connect()
        let reply = try await client.request(.startConversation(members: ["bob"]))
        #expect(reply.isError)
        #expect(reply.errorMessage.code == 4105)
        await server.stop()
    }

    @Test func sameTagOnAnotherDeviceClosesTheFirstWith4111() async throws {
        let server = try await CoreHarness.start()
        let phone = try await server.login("alice", tag: "mobile")
        let tablet = try await server.login("alice", tag: "mobile")
        let closed = try await phone.next { $0.cmd == .session && $0.op == .closed }
        #expect(closed.sessionMessage.code == 4111)
        #expect(closed.peerID == "alice")
        // The displaced session can no longer act for alice; the new one can.
        let refused = try await phone.request(.startConversation(members: ["bob"]))
        #expect(refused.errorMessage.code == 4105)
        _ = try await tablet.startConversation(members: ["bob"])
        await server.stop()
    }

    /// The displaced device's SDK reconnects on its own (`r` set): it is turned away with
    /// 4111, and the device that took the tag stays.
    @Test func aReconnectDoesNotTakeTheTagBack() async throws {
        let server = try await CoreHarness.start()
        let phone = try await server.login("alice", tag: "mobile")
        let tablet = try await server.login("alice", tag: "mobile")
        _ = try await phone.next { $0.cmd == .session && $0.op == .closed }
        var reconnect = GenericCommand.open("alice", appID: server.config.appID, tag: "mobile")
        reconnect.sessionMessage.r = true
        let refused = try await phone.request(reconnect)
        #expect(refused.op == .closed && refused.sessionMessage.code == 4111)
        try await phone.awaitHandled()
        #expect(tablet.received { $0.cmd == .session && $0.op == .closed }.isEmpty)
        _ = try await tablet.startConversation(members: ["bob"])
        await server.stop()
    }

    @Test func withoutTagsEveryDeviceStaysLoggedIn() async throws {
        let server = try await CoreHarness.start()
        let first = try await server.login("alice")
        let second = try await server.login("alice")
        try await second.awaitHandled()
        #expect(first.received { $0.cmd == .session && $0.op == .closed }.isEmpty)
        _ = try await first.startConversation(members: ["bob"])
        _ = try await second.startConversation(members: ["carol"])
        await server.stop()
    }

    @Test func sessionCloseEndsTheSession() async throws {
        let server = try await CoreHarness.start()
        let client = try await server.login("alice")
        let reply = try await client.request(.closeSession())
        #expect(reply.op == .closed)
        #expect(!reply.sessionMessage.hasCode)
        let after = try await client.request(.startConversation(members: ["bob"]))
        #expect(after.errorMessage.code == 4105)
        await server.stop()
    }

    @Test func echoIsAnswered() async throws {
        let server = try await CoreHarness.start()
        let client = try await server.login("alice")
        let reply = try await client.request(.echo)
        #expect(reply.cmd == .echo)
        await server.stop()
    }
}

/// What the transport does with a connection's time and end, on a whole server: the core has
/// no part in them.
@Suite struct SessionTransportTests {
    @Test func shutdownSaysGoawayAndCloses() async throws {
        let server = try await TestServer.start()
        let client = try await server.login("alice")
        try await server.stop()
        _ = try await client.next { $0.cmd == .goaway }
        try await client.waitUntilClosed()
    }

    @Test func silentConnectionIsClosedAfterTheLoginTimeout() async throws {
        let server = try await TestServer.start { $0.loginTimeoutSeconds = 1 }
        let client = try await server.connect()
        let notice = try await client.next(timeout: .seconds(5)) { $0.isError }
        #expect(notice.errorMessage.code == 4108)
        try await client.waitUntilClosed()
        try await server.stop()
    }

    @Test func idleConnectionIsClosedButEchoKeepsItOpen() async throws {
        // Real time: the gateway measures silence on the monotonic clock, as a socket's must
        // be. Echoes every 0.5 s against a 4 s idle limit: a loaded machine may delay one a lot.
        let server = try await TestServer.start { $0.idleTimeoutSeconds = 4 }
        let chatty = try await server.login("alice")
        let silent = try await server.login("bob")
        for _ in 0..<10 {
            try await Task.sleep(for: .milliseconds(500))
            // Generous: at the start of a full run the whole suite shares two cores.
            _ = try await chatty.request(.echo, timeout: .seconds(15))
        }
        #expect(try await silent.next(timeout: .seconds(3)) { $0.isError }.errorMessage.code == 4107)
        try await silent.waitUntilClosed()
        #expect(!chatty.isClosed)
        try await server.stop()
    }
}

@Suite struct SessionLimitTests {
    @Test func oneConnectionCarriesAtMostThirtyTwoClients() async throws {
        let server = try await TestServer.start()
        let connection = try await server.connect()
        for index in 0..<32 {
            #expect(try await connection.request(.open("client\(index)", appID: server.config.appID)).op == .opened)
        }
        let refused = try await connection.request(.open("one-too-many", appID: server.config.appID))
        #expect(refused.op == .closed && refused.sessionMessage.code == ErrorCode.invalidLogin.rawValue)
        // A client already on the connection may log in again.
        #expect(try await connection.request(.open("client0", appID: server.config.appID)).op == .opened)
        try await server.stop()
    }
}
