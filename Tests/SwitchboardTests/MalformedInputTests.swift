import Foundation
import SwitchboardWire
import Testing

@Suite(.storeBlind) struct MalformedInputTests {
    @Test func garbageFramesGet4114AndTheConnectionLivesOn() async throws {
        let server = try await TestServer.start()
        let client = try await server.login("alice")
        client.sendRaw(.binary([0xFF, 0xFF, 0xFF, 0xFF, 0x0F]))
        let error = try await client.next { $0.isError }
        #expect(error.errorMessage.code == 4114)
        #expect(error.errorMessage.reason == "UNPARSEABLE_RAW_MESSAGE")
        client.sendRaw(.text("not a binary frame"))
        #expect(try await client.next { $0.isError }.errorMessage.code == 4114)
        // Invalid UTF-8 inside a protobuf string field.
        client.sendRaw(.binary([0x08, 0x02, 0x22, 0x02, 0xC3, 0x28]))
        #expect(try await client.next { $0.isError }.errorMessage.code == 4114)
        #expect(try await client.request(.echo).cmd == .echo)
        try await server.stop()
    }

    @Test func unknownCommandsGet4114WithTheirSerial() async throws {
        let server = try await TestServer.start()
        let client = try await server.login("alice")
        var unknown = GenericCommand()
        unknown.cmd = .pubsub
        unknown.op = .join
        let reply = try await client.request(unknown)
        #expect(reply.isError)
        #expect(reply.errorMessage.code == 4114)
        try await server.stop()
    }

    @Test func base64ProtocolRejectsBadBase64() async throws {
        let server = try await TestServer.start()
        let client = try await server.connect(.base64)
        client.sendRaw(.text("@@not base64@@"))
        #expect(try await client.next { $0.isError }.errorMessage.code == 4114)
        let opened = try await client.request(.open("alice", appID: server.config.appID))
        #expect(opened.op == .opened)
        try await server.stop()
    }

    @Test func jsonProtocolWorksForHumans() async throws {
        let server = try await TestServer.start()
        let client = try await server.connect(.json)
        client.sendRaw(.text(#"{"cmd":"session","op":"open","appId":"\#(server.config.appID)","peerId":"alice","i":1}"#))
        let opened = try await client.next { $0.hasI && $0.i == 1 }
        #expect(opened.op == .opened)
        try await server.stop()
    }

    @Test func framesOverTheLimitCloseTheConnectionButNotTheServer() async throws {
        let server = try await TestServer.start { $0.maxFrameBytes = 1024 }
        let client = try await server.login("alice")
        client.sendRaw(.binary(Array(repeating: 0x41, count: 4096)))
        try await client.waitUntilClosed()
        let other = try await server.login("bob")
        #expect(try await other.request(.echo).cmd == .echo)
        try await server.stop()
    }

    @Test func malformedConversationAttributesAndQueriesAreRefused() async throws {
        let server = try await TestServer.start()
        let client = try await server.login("alice")
        var start = GenericCommand.startConversation(members: ["bob"])
        start.convMessage.attr.data = "[1,2"
        #expect(try await client.request(start).errorMessage.code == 4301)
        #expect(try await client.request(.query(where: "{")).errorMessage.code == 4301)
        try await server.stop()
    }
}
