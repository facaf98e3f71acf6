import Foundation
import HummingbirdWSClient
import Logging
import NIOCore
import Synchronization
import SwitchboardWire
import Testing

/// A client that speaks LeanCloud's protocol over a real WebSocket, as an SDK does.
/// Received commands collect in an inbox that tests take from by predicate.
final class TestClient: SDKClient {
    struct Timeout: Error, CustomStringConvertible {
        var description: String
    }

    private struct State {
        var closed = false
        /// While set the client reads nothing, so the server's writes back up.
        var paused = false
        var nextSerial: Int32 = 1
    }

    let codec: FrameCodec
    private let outgoing: AsyncStream<Frame>.Continuation
    private let state = Mutex(State())
    private let inbox = WatchedValue<[GenericCommand]>([])

    private init(codec: FrameCodec, outgoing: AsyncStream<Frame>.Continuation) {
        self.codec = codec
        self.outgoing = outgoing
    }

    /// Connects and returns once the WebSocket is open. On `lc.protobuf2.1` by default, where
    /// what a client missed is pushed at login, which is what most suites check; a client of
    /// `lc.protobuf2.3` gets unread counts instead.
    static func connect(port: Int, subprotocol: Subprotocol = .protobuf1) async throws -> TestClient {
        let (frames, outgoing) = AsyncStream.makeStream(of: Frame.self)
        let client = TestClient(codec: FrameCodec(subprotocol: subprotocol), outgoing: outgoing)
        let opened = AsyncStream.makeStream(of: Result<Void, any Error>.self)
        var configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 20)
        configuration.additionalHeaders[.secWebSocketProtocol] = subprotocol.rawValue
        Task {
            do {
                try await WebSocketClient.connect(
                    url: "ws://127.0.0.1:\(port)/", configuration: configuration, logger: Logger(label: "test-client")
                ) { inbound, outbound, _ in
                    opened.continuation.yield(.success(()))
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await frame in frames {
                                switch frame {
                                case .binary(let bytes): try await outbound.write(.binary(ByteBuffer(bytes: bytes)))
                                case .text(let text): try await outbound.write(.text(text))
                                }
                            }
                            try await outbound.close(.normalClosure, reason: nil)
                        }
                        for try await message in inbound.messages(maxSize: 1 << 20) {
                            while client.state.withLock({ $0.paused }) { try await Task.sleep(for: .milliseconds(5)) }
                            let frame: Frame = switch message {
                            case .binary(let buffer): .binary(Array(buffer.readableBytesView))
                            case .text(let text): .text(text)
                            }
                            if let command = try? client.codec.decode(frame) {
                                client.inbox.update { $0.append(command) }
                            }
                        }
                        group.cancelAll()
                    }
                }
            } catch {
                opened.continuation.yield(.failure(error))
            }
            client.state.withLock { $0.closed = true }
            opened.continuation.finish()
        }
        for await result in opened.stream {
            try result.get()
            return client
        }
        throw Timeout(description: "connection closed before it opened")
    }

    /// Connects and logs `clientID` in.
    static func login(
        _ clientID: String, port: Int, appID: String = "switchboard-dev", tag: String? = nil, subprotocol: Subprotocol = .protobuf1
    ) async throws -> TestClient {
        let client = try await connect(port: port, subprotocol: subprotocol)
        let reply = try await client.request(.open(clientID, appID: appID, tag: tag))
        guard reply.cmd == .session, reply.op == .opened else {
            throw Timeout(description: "login of \(clientID) failed: \(reply)")
        }
        return client
    }

    var isClosed: Bool { state.withLock { $0.closed } }

    /// Stops or resumes reading from the socket, to play a client that falls behind.
    func setPaused(_ paused: Bool) {
        state.withLock { $0.paused = paused }
    }

    /// Sends a command as is.
    func send(_ command: GenericCommand) {
        outgoing.yield(codec.encode(command))
    }

    /// Sends raw frame bytes, for malformed input.
    func sendRaw(_ frame: Frame) {
        outgoing.yield(frame)
    }

    func nextSerial() -> Int32 {
        state.withLock { state in
            defer { state.nextSerial += 1 }
            return state.nextSerial
        }
    }

    /// Takes the first received command that matches, waiting for it if needed.
    func next(
        timeout: Duration = .seconds(5), _ what: String = "command", where matches: @escaping @Sendable (GenericCommand) -> Bool
    ) async throws -> GenericCommand {
        guard let found = await inbox.takeFirst(within: timeout, where: matches) else {
            throw Timeout(description: "no \(what) within \(timeout)")
        }
        return found
    }

    func received(where matches: (GenericCommand) -> Bool) -> [GenericCommand] {
        inbox.takeAll(where: matches)
    }

    /// Waits until the server closes the connection.
    func waitUntilClosed(timeout: Duration = .seconds(5)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !isClosed {
            guard ContinuousClock.now < deadline else { throw Timeout(description: "connection still open after \(timeout)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    func close() {
        outgoing.finish()
    }

    deinit {
        outgoing.finish()
    }
}
