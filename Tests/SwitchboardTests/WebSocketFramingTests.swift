import Foundation
import SwitchboardWire
import Testing

/// The WebSocket protocol under LeanCloud's: control frames, fragments, the close
/// handshake, and a client that sends without waiting. Spoken byte by byte (`RawWebSocket`)
/// on a thread of its own, since its reads block.
@Suite(.storeBlind) struct WebSocketFramingTests {
    private static let codec = FrameCodec(subprotocol: .protobuf3)

    private static func echo(serial: Int32) -> [UInt8] {
        var command = GenericCommand()
        command.cmd = .echo
        command.i = serial
        guard case .binary(let bytes) = codec.encode(command) else { return [] }
        return bytes
    }

    private static func command(in frame: RawWebSocket.Frame?) throws -> GenericCommand {
        let frame = try #require(frame)
        #expect(frame.opcode == RawWebSocket.Frame.binary)
        return try codec.decode(.binary(frame.payload))
    }

    @Test func pingsAreAnsweredWithTheirData() async throws {
        let server = try await TestServer.start()
        let pong = try await RawWebSocket.onThread { [port = server.port] in
            let socket = try RawWebSocket(port: port)
            try socket.send([.init(opcode: RawWebSocket.Frame.ping, payload: Array("are you there".utf8))])
            return try socket.receive()
        }
        #expect(pong == .init(opcode: RawWebSocket.Frame.pong, payload: Array("are you there".utf8)))
        try await server.stop()
    }

    @Test func aCommandSentInFragmentsIsHandledWhole() async throws {
        let server = try await TestServer.start()
        let reply = try await RawWebSocket.onThread { [port = server.port] in
            let socket = try RawWebSocket(port: port)
            let bytes = Self.echo(serial: 7)
            try socket.send([
                .init(fin: false, opcode: RawWebSocket.Frame.binary, payload: Array(bytes.prefix(2))),
                .init(opcode: RawWebSocket.Frame.ping, payload: []),
                .init(fin: true, opcode: RawWebSocket.Frame.continuation, payload: Array(bytes.dropFirst(2))),
            ])
            return [try socket.receive(), try socket.receive()]
        }
        // The ping between the fragments is answered first.
        #expect(reply.first??.opcode == RawWebSocket.Frame.pong)
        let echo = try Self.command(in: reply.last ?? nil)
        #expect(echo.cmd == .echo)
        #expect(echo.i == 7)
        try await server.stop()
    }

    @Test func fragmentsAddingUpToMoreThanTheLimitCloseWith1009() async throws {
        let server = try await TestServer.start { $0.maxFrameBytes = 1024 }
        let frames = try await RawWebSocket.onThread { [port = server.port] in
            let socket = try RawWebSocket(port: port)
            try socket.send([
                .init(fin: false, opcode: RawWebSocket.Frame.binary, payload: Array(repeating: 1, count: 800)),
                .init(fin: true, opcode: RawWebSocket.Frame.continuation, payload: Array(repeating: 1, count: 800)),
            ])
            return [try socket.receive(), try socket.receive()]
        }
        #expect(frames.first??.opcode == RawWebSocket.Frame.close)
        #expect(frames.first??.payload == [0x03, 0xF1])
        #expect(frames.last! == nil, "the socket closes after the close frame")
        try await server.stop()
    }

    @Test func aClientsCloseIsAnsweredWithItsCodeAndTheSocketClosed() async throws {
        let server = try await TestServer.start()
        let frames = try await RawWebSocket.onThread { [port = server.port] in
            let socket = try RawWebSocket(port: port)
            try socket.send([.init(opcode: RawWebSocket.Frame.close, payload: [0x03, 0xE8])])
            return [try socket.receive(), try socket.receive()]
        }
        #expect(frames.first! == .init(opcode: RawWebSocket.Frame.close, payload: [0x03, 0xE8]))
        #expect(frames.last! == nil)
        try await server.stop()
    }

    /// Far more than the connection queues before it stops reading: each is answered, in
    /// the order sent, so reading resumed every time it paused.
    @Test func commandsSentWithoutWaitingAreAllAnsweredInOrder() async throws {
        let server = try await TestServer.start()
        let count: Int32 = 2000
        let replies = try await RawWebSocket.onThread { [port = server.port] in
            let socket = try RawWebSocket(port: port)
            try socket.send((1...count).map { .init(opcode: RawWebSocket.Frame.binary, payload: Self.echo(serial: $0)) })
            return try (1...count).map { _ in try socket.receive() }
        }
        #expect(try replies.map { try Self.command(in: $0).i } == Array(1...count))
        try await server.stop()
    }
}
