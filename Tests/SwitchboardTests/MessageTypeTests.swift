import SwitchboardHooks
import SwitchboardServer
import SwitchboardWire
import Testing

/// The built-in typed-message check, over real clients.
@Suite struct MessageTypeTests {
    @Test func typedMessagesNeedTheirFieldsAndDeclaredTypes() async throws {
        let server = try await TestServer.start { $0.messageTypes = .init(declaredTypes: [7: ["_lcattrs.orderId"]]) }
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        let cases: [(String, Int32?)] = [
            ("plain words", nil),
            (#"{"not":"typed"}"#, nil),
            (#"{"_lctype":-1,"_lctext":"hi"}"#, nil),
            (#"{"_lctype":-1}"#, 9003),
            (#"{"_lctype":-2,"_lcfile":{"url":"https://example.com/cat.png"}}"#, nil),
            (#"{"_lctype":-2,"_lcfile":{"objId":"abc"}}"#, 9003),
            (#"{"_lctype":-5,"_lcloc":{"latitude":1.5,"longitude":2}}"#, nil),
            (#"{"_lctype":-5,"_lcloc":{"latitude":1.5}}"#, 9003),
            (#"{"_lctype":7,"_lcattrs":{"orderId":"A-1"}}"#, nil),
            (#"{"_lctype":7,"_lcattrs":{}}"#, 9003),
            (#"{"_lctype":8}"#, 9002),
            (#"{"_lctype":-9}"#, 9002),
            (#"{"_lctype":"image"}"#, 9001),
            (#"{"_lctype":-127}"#, 9001),
        ]
        for (content, refusal) in cases {
            let ack = try await alice.request(.text(content, cid: cid)).ackMessage
            if let refusal {
                #expect(ack.code == 4402 && ack.appCode == refusal, "\(content)")
            } else {
                #expect(!ack.hasCode, "\(content)")
            }
        }
        try await server.stop()
    }

    @Test func declaredTypesMustBePositiveNumbers() throws {
        let file = TestServer.temporaryDirectory() + ".yaml"
        try "messageTypes:\n  declared:\n    order: [_lctext]\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(throws: ConfigError.self) { try ServerConfig.load(path: file) }
        try "messageTypes:\n  declared:\n    12: [_lctext]\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try ServerConfig.load(path: file).messageTypes?.declaredTypes == [12: ["_lctext"]])
    }
}
