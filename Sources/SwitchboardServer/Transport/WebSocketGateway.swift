import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import Synchronization
import SwitchboardCore
import SwitchboardWire

/// Accepts WebSocket connections at `/`, negotiates the LeanCloud subprotocol, decodes
/// frames for the core and writes its replies back.
final class WebSocketGateway: Sendable {
    struct Limits: Sendable {
        var maxFrameBytes: Int
        var idleTimeout: Duration
        var loginTimeout: Duration
    }

    private let core: MessagingCore
    private let limits: Limits
    private let logger: Logger
    private let nextConnectionID = Atomic<UInt64>(1)
    /// Every open connection's outbox, so shutdown can say `goaway` to each.
    private let open = Mutex<[UInt64: WebSocketOutbox]>([:])

    init(core: MessagingCore, limits: Limits, logger: Logger) {
        self.core = core
        self.limits = limits
        self.logger = logger
    }

    func addRoutes(to router: Router<GatewayContext>) {
        router.ws("/") { request, _ in
            guard let chosen = Subprotocol.negotiate(offered: request.headers[.secWebSocketProtocol]) else {
                return .dontUpgrade
            }
            let offered = request.headers[.secWebSocketProtocol] != nil
            return .upgrade(offered ? [.secWebSocketProtocol: chosen.rawValue] : [:])
        } onUpgrade: { inbound, outbound, context in
            let subprotocol = Subprotocol.negotiate(offered: context.request.headers[.secWebSocketProtocol]) ?? .protobuf3
            let address = context.requestContext.remoteAddress?.ipAddress ?? "unknown"
            await self.serve(inbound: inbound, outbound: outbound, codec: FrameCodec(subprotocol: subprotocol), remoteAddress: address)
        }
    }

    /// Tells every connected client to reconnect elsewhere, then closes its connection.
    func sayGoodbye() {
        let outboxes = open.withLock { Array($0.values) }
        for outbox in outboxes {
            var goaway = GenericCommand()
            goaway.cmd = .goaway
            outbox.send(goaway)
            outbox.close()
        }
    }

    private func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, codec: FrameCodec, remoteAddress: String) async {
        let outbox = WebSocketOutbox()
        let id = nextConnectionID.add(1, ordering: .relaxed).oldValue
        let connection = Connection(id: id, outbox: outbox, remoteAddress: remoteAddress)
        let activity = ConnectionActivity()
        open.withLock { $0[id] = outbox }
        logger.debug("connection opened", metadata: ["connection": "\(id)", "address": "\(remoteAddress)", "protocol": "\(codec.subprotocol.rawValue)"])

        await withTaskGroup(of: Void.self) { group in
            group.addTask { await Self.write(outbox, to: outbound, codec: codec) }
            group.addTask { await self.watch(activity, connection: connection, outbox: outbox) }
            await read(inbound, codec: codec, connection: connection, activity: activity)
            outbox.close()
            group.cancelAll()
        }

        open.withLock { $0[id] = nil }
        core.connectionClosed(connection)
        logger.debug("connection closed", metadata: ["connection": "\(id)"])
    }

    private func read(_ inbound: WebSocketInboundStream, codec: FrameCodec, connection: Connection, activity: ConnectionActivity) async {
        do {
            for try await message in inbound.messages(maxSize: limits.maxFrameBytes) {
                activity.touch()
                let frame: Frame = switch message {
                case .binary(let buffer): .binary(Array(buffer.readableBytesView))
                case .text(let text): .text(text)
                }
                let command: GenericCommand
                do {
                    command = try codec.decode(frame)
                } catch {
                    logger.notice("unparseable frame", metadata: ["connection": "\(connection.id)", "error": "\(error)"])
                    connection.outbox.send(.error(.unparseableRawMessage, detail: "\(error)"))
                    continue
                }
                if command.cmd == .session, command.op == .open { activity.loggedIn() }
                await core.handle(command, on: connection)
            }
        } catch {
            logger.debug("connection read ended", metadata: ["connection": "\(connection.id)", "error": "\(error)"])
        }
    }

    private static func write(_ outbox: WebSocketOutbox, to outbound: WebSocketOutboundWriter, codec: FrameCodec) async {
        do {
            for await item in outbox.items {
                switch item {
                case .command(let command):
                    switch codec.encode(command) {
                    case .binary(let bytes): try await outbound.write(.binary(ByteBuffer(bytes: bytes)))
                    case .text(let text): try await outbound.write(.text(text))
                    }
                    outbox.written()
                case .close:
                    try await outbound.close(.normalClosure, reason: nil)
                    return
                }
            }
            // The queue overflowed (or the connection is done): close.
            try await outbound.close(.policyViolation, reason: "client too slow")
        } catch {
            // The socket is gone; the reader sees it too and ends the connection.
        }
    }

    /// Closes connections that say nothing for too long, or never open a session.
    private func watch(_ activity: ConnectionActivity, connection: Connection, outbox: WebSocketOutbox) async {
        let started = ContinuousClock.now
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(1))
            let now = ContinuousClock.now
            if !activity.hasLoggedIn, now - started > limits.loginTimeout {
                outbox.send(.error(.loginTimeout, detail: "no session opened in time"))
                outbox.close()
                return
            }
            if now - activity.lastSeen > limits.idleTimeout {
                outbox.send(.error(.readTimeout, detail: "connection idle"))
                outbox.close()
                return
            }
        }
    }
}
