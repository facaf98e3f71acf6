import SwitchboardCore
import SwitchboardWire
import Testing

/// Signatures as an attacker would reuse or bend them, on the core alone: signed at the
/// time of its clock.
@Suite(.storeBlind) struct SignatureAbuseTests {
    @Test func aLoginSignatureOpensOneSessionOnly() async throws {
        let server = try await CoreHarness.start { $0.signaturesRequired = true }
        let now = server.clock.now() / 1000
        let signer = Signature(appID: server.config.appID, masterKey: server.config.masterKey)
        let signed = (now, "once", signer.login(clientID: "alice", timestamp: now, nonce: "once"))
        let first = server.connect()
        #expect(try await first.request(.open("alice", appID: server.config.appID, signature: signed)).op == .opened)
        let replay = server.connect()
        let refused = try await replay.request(.open("alice", appID: server.config.appID, signature: signed))
        #expect(refused.op == .closed && refused.sessionMessage.code == 4102)
        // A fresh nonce is fine.
        let fresh = (now, "twice", signer.login(clientID: "alice", timestamp: now, nonce: "twice"))
        #expect(try await replay.request(.open("alice", appID: server.config.appID, signature: fresh)).op == .opened)
        await server.stop()
    }

    @Test func timestampsInMillisecondsAreTakenAndTheWindowIsSixHours() async throws {
        let server = try await CoreHarness.start { $0.signaturesRequired = true }
        let now = server.clock.now() / 1000
        let signer = Signature(appID: server.config.appID, masterKey: server.config.masterKey)
        let client = server.connect()
        let milliseconds = now * 1000
        let inMilliseconds = (milliseconds, "ms", signer.login(clientID: "alice", timestamp: milliseconds, nonce: "ms"))
        #expect(try await client.request(.open("alice", appID: server.config.appID, signature: inMilliseconds)).op == .opened)
        let fiveHoursAgo = now - 5 * 3600
        let older = (fiveHoursAgo, "old", signer.login(clientID: "bob", timestamp: fiveHoursAgo, nonce: "old"))
        #expect(try await client.request(.open("bob", appID: server.config.appID, signature: older)).op == .opened)
        let sevenHoursAgo = now - 7 * 3600
        let stale = (sevenHoursAgo, "stale", signer.login(clientID: "carol", timestamp: sevenHoursAgo, nonce: "stale"))
        #expect(try await client.request(.open("carol", appID: server.config.appID, signature: stale)).sessionMessage.code == 4102)
        await server.stop()
    }

    /// Signed strings join ids with `:`, so a signature for the one member `x:y` is the
    /// signature for the members `x` and `y`. No id may hold a `:`, so no request ever
    /// needs such a signature (a signing server must refuse to make one).
    @Test func idsThatWouldSplitASignedStringAreRefused() async throws {
        let server = try await CoreHarness.start { $0.signaturesRequired = true }
        let now = server.clock.now() / 1000
        let signer = Signature(appID: server.config.appID, masterKey: server.config.masterKey)
        #expect(
            signer.startConversation(clientID: "alice", members: ["x:y"], timestamp: now, nonce: "n")
                == signer.startConversation(clientID: "alice", members: ["x", "y"], timestamp: now, nonce: "n")
        )
        let client = server.connect()
        let colon = (now, "n-colon", signer.login(clientID: "x:y", timestamp: now, nonce: "n-colon"))
        #expect(try await client.request(.open("x:y", appID: server.config.appID, signature: colon)).sessionMessage.code == 4103)
        let login = (now, "n-login", signer.login(clientID: "alice", timestamp: now, nonce: "n-login"))
        #expect(try await client.request(.open("alice", appID: server.config.appID, signature: login)).op == .opened)
        var start = GenericCommand.startConversation(members: ["x:y"])
        start.convMessage.t = now
        start.convMessage.n = "n-start"
        start.convMessage.s = signer.startConversation(clientID: "alice", members: ["x:y"], timestamp: now, nonce: "n-start")
        #expect(try await client.request(start).errorMessage.code == 4301)
        await server.stop()
    }

    @Test func aConversationSignatureIsGoodOnce() async throws {
        let server = try await CoreHarness.start { $0.signaturesRequired = true }
        let now = server.clock.now() / 1000
        let signer = Signature(appID: server.config.appID, masterKey: server.config.masterKey)
        let client = server.connect()
        let login = (now, "login-a", signer.login(clientID: "alice", timestamp: now, nonce: "login-a"))
        #expect(try await client.request(.open("alice", appID: server.config.appID, signature: login)).op == .opened)
        var start = GenericCommand.startConversation(members: ["bob"])
        start.convMessage.t = now
        start.convMessage.n = "start-1"
        start.convMessage.s = signer.startConversation(clientID: "alice", members: ["bob"], timestamp: now, nonce: "start-1")
        #expect(try await client.request(start).op == .started)
        #expect(try await client.request(start).errorMessage.code == 4302)
        await server.stop()
    }
}
