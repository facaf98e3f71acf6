import Crypto
import Foundation
import Testing
@testable import SwitchboardServer

/// The provider token is kept while Apple accepts it and renewed before it expires (an
/// hour), never more often than Apple allows (every 20 minutes).
@Suite(.storeBlind) struct APNsAuthTokenTests {
    @Test func theTokenIsKeptFor50MinutesThenRenewed() throws {
        let key = P256.Signing.PrivateKey()
        let token = try APNsAuthToken(pem: key.pemRepresentation, keyID: "KEY123", teamID: "TEAM123")
        let start: Int64 = 1_800_000_000
        let first = try token.token(now: start)
        #expect(try token.token(now: start + 20 * 60) == first)
        #expect(try token.token(now: start + 50 * 60 - 1) == first)
        let renewed = try token.token(now: start + 50 * 60)
        #expect(renewed != first)
        #expect(try token.token(now: start + 60 * 60) == renewed)
        // Each is signed with the key, and says when it was issued.
        for (jwt, issuedAt) in [(first, start), (renewed, start + 50 * 60)] {
            let parts = jwt.split(separator: ".").map(String.init)
            let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(Base64URL.decode(parts[2])))
            #expect(key.publicKey.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8)))
            #expect(String(decoding: try #require(Base64URL.decode(parts[1])), as: UTF8.self).contains("\"iat\":\(issuedAt)"))
        }
    }

    @Test func aKeyThatIsNotP256IsRefused() {
        #expect(throws: (any Error).self) { try APNsAuthToken(pem: "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----", keyID: "K", teamID: "T") }
    }
}
