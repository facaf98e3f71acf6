import HummingbirdWSClient
import Logging
import NIOCore
import SwitchboardWire

/// A bare LeanCloud-protocol client over a real WebSocket: what it receives comes out of
/// `received`, in order. Each command it sends goes out in a frame and a socket write of
/// its own (each write is awaited before the next is taken), as a phone's SDK sends them.
struct BenchClient: Sendable {
    let received: AsyncStream<GenericCommand>
    private let outgoing: AsyncStream<GenericCommand>.Continuation

    struct Closed: Error {}

    static func connect(port: Int) async throws -> BenchClient {
        let codec = FrameCodec(subprotocol: .protobuf3)
        let (commands, outgoing) = AsyncStream.makeStream(of: GenericCommand.self)
        let (received, inbox) = AsyncStream.makeStream(of: GenericCommand.self)
        let (opened, open) = AsyncStream.makeStream(of: Bool.self)
        var configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 20)
        configuration.additionalHeaders[.secWebSocketProtocol] = Subprotocol.protobuf3.rawValue
        Task {
            _ = try? await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/", configuration: configuration, logger: Logger(label: "bench-client")) {
                inbound, outbound, _ in
                open.yield(true)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await command in commands {
                            switch codec.encode(command) {
                            case .binary(let bytes): try await outbound.write(.binary(ByteBuffer(bytes: bytes)))
                            case .text(let text): try await outbound.write(.text(text))
                            }
                        }
                        try await outbound.close(.normalClosure, reason: nil)
                    }
                    for try await message in inbound.messages(maxSize: 1 << 20) {
                        let frame: Frame = switch message {
                        case .binary(let buffer): .binary(Array(buffer.readableBytesView))
                        case .text(let text): .text(text)
                        }
                        if let command = try? codec.decode(frame) { inbox.yield(command) }
                    }
                    group.cancelAll()
                }
            }
            open.yield(false)
            inbox.finish()
        }
        for await isOpen in opened {
            guard isOpen else { throw Closed() }
            return BenchClient(received: received, outgoing: outgoing)
        }
        throw Closed()
    }

    func send(_ command: GenericCommand) {
        outgoing.yield(command)
    }

    func close() {
        outgoing.finish()
    }
}
