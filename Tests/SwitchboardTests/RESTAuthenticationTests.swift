import Foundation
import Testing
@testable import SwitchboardServer

/// The REST APIs' one authenticator: a wrong key is refused with the same answer whether or
/// not it has the right key's length, on every kind of route.
@Suite struct RESTAuthenticationTests {
    /// `key` with its first character changed: the same length, and wrong.
    private static func altered(_ key: String) -> String {
        (key.first == "x" ? "y" : "x") + key.dropFirst()
    }

    @Test func aHeldSecretMatchesItselfOnly() {
        let secret = HeldSecret("DyJegPlemooo4X1tg94gQkw1,master")
        #expect(secret.matches("DyJegPlemooo4X1tg94gQkw1,master"))
        for wrong in [Self.altered("DyJegPlemooo4X1tg94gQkw1,master"), "DyJegPlemooo4X1tg94gQkw1", "DyJegPlemooo4X1tg94gQkw1,master ", ""] {
            #expect(!secret.matches(wrong), "\(wrong)")
        }
    }

    @Test func aWrongKeyOfTheRightLengthOrAnotherIsRefusedAlike() async throws {
        let server = try await TestServer.start()
        let master = server.config.masterKey + ",master"
        let appKey = server.config.appKey
        let wrongKeys = [Self.altered(master), master + "x", String(master.dropLast()), Self.altered(appKey), appKey + "x", "x"]
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let signature = TestServer.masterSignature(server.config.masterKey, at: now)
        let wrongSignatures = [Self.altered(signature), "0" + signature]
        // A route of the app's server, one that also takes the app key, LeanStorage's, and one
        // the SDKs call for a logged-in client.
        let paths = ["/1.2/rtm/conversations", "/1.1/installations/none", "/1.1/classes/Note", "/1.1/rtm/notifications?client_id=alice"]
        for path in paths {
            var answers: Set<String> = []
            for key in wrongKeys {
                let (status, data) = try await server.restData("GET", path, key: .some(key))
                #expect(status == 401, "\(path) \(key)")
                answers.insert(String(decoding: data, as: UTF8.self))
            }
            for sign in wrongSignatures {
                let (status, data) = try await server.restData("GET", path, key: nil, sign: sign)
                #expect(status == 401, "\(path) \(sign)")
                answers.insert(String(decoding: data, as: UTF8.self))
            }
            #expect(answers == [#"{"code":401,"error":"Unauthorized."}"#], "\(path)")
        }
        // The right key gets past the authenticator on each (the client route then wants a login).
        #expect(try await server.restData("GET", "/1.2/rtm/conversations").0 == 200)
        #expect(try await server.restData("GET", "/1.1/installations/none", key: .some(appKey)).0 != 401)
        #expect(try await server.restData("GET", "/1.1/classes/Note", key: nil, sign: signature).0 == 200)
        let (status, answer) = try await server.rest("GET", "/1.1/rtm/notifications?client_id=alice", key: .some(appKey))
        #expect(status == 401 && answer["code"] as? Int == 4112)
        try await server.stop()
    }
}
