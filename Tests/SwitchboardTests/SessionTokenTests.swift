import Foundation
import SwitchboardCore
import SwitchboardWire
import Testing

@Suite struct SessionTokenTests {
    let tokens = SessionTokens(masterKey: "master")

    @Test func aTokenOpensItsOwnClientsSessionsUntilItExpires() {
        let token = tokens.issue(for: "alice", now: 1_000)
        #expect(tokens.isValid(token, for: "alice", now: 2_000))
        #expect(!tokens.isValid(token, for: "bob", now: 2_000))
        #expect(!tokens.isValid(token, for: "alice", now: 1_000 + Int64(SessionTokens.lifetimeSeconds) * 1000))
        #expect(!SessionTokens(masterKey: "other").isValid(token, for: "alice", now: 2_000))
        let stretched = "9" + token
        #expect(!tokens.isValid(stretched, for: "alice", now: 2_000))
        #expect(!tokens.isValid("garbage", for: "alice", now: 2_000))
    }

    /// The SDKs name their device at the first login only; the token carries it to the
    /// reconnect, untampered.
    @Test func aTokenNamesTheDeviceItWasIssuedTo() {
        let token = tokens.issue(for: "alice", device: "phone-1", now: 1_000)
        #expect(tokens.device(of: token, for: "alice", now: 2_000) == "phone-1")
        #expect(tokens.device(of: tokens.issue(for: "alice", now: 1_000), for: "alice", now: 2_000) == "")
        let parts = token.split(separator: ".")
        let otherDevice = parts[0] + "." + parts[1] + "." + Data("tablet".utf8).base64EncodedString()
        #expect(tokens.device(of: otherDevice, for: "alice", now: 2_000) == nil)
        #expect(tokens.device(of: parts[0] + "." + parts[1], for: "alice", now: 2_000) == nil)
    }

    /// Nothing is kept per login, so a token still opens a session after a restart.
    @Test func aTokenSurvivesARestart() async throws {
        let directory = TestServer.temporaryDirectory()
        var server = try await TestServer.start(dataDirectory: directory) { $0.signaturesRequired = true }
        let signature = Signature(appID: server.config.appID, masterKey: server.config.masterKey)
        let now = Int64(Date().timeIntervalSince1970)
        let first = try await server.connect()
        let opened = try await first.request(.open(
            "alice", appID: server.config.appID, signature: (now, "n1", signature.login(clientID: "alice", timestamp: now, nonce: "n1"))
        ))
        let token = opened.sessionMessage.st
        try await server.stop()

        server = try await TestServer.start(dataDirectory: directory) { $0.signaturesRequired = true }
        let again = try await server.connect()
        var reopen = GenericCommand.open("alice", appID: server.config.appID)
        reopen.sessionMessage.st = token
        #expect(try await again.request(reopen).op == .opened)
        var stolen = GenericCommand.open("mallory", appID: server.config.appID)
        stolen.sessionMessage.st = token
        // Not mallory's: 4112, as for any stale token, and no session.
        #expect(try await again.request(stolen).errorMessage.code == 4112)
        try await server.stop()
    }
}
