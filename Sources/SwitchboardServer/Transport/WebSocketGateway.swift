import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import Prometheus
import Synchronization
import SwitchboardCore
import SwitchboardHooks
import SwitchboardWire

/// Accepts WebSocket connections at `/`, negotiates the LeanCloud subprotocol, decodes
/// frames for the core and writes its replies back.
final class WebSocketGateway: Sendable {
    struct Limits: Sendable {
        var maxFrameBytes: Int
        var idleTimeout: Duration
        var loginTimeout: Duration
        /// Commands that may wait for a client that reads slowly before it is disconnected.
        var outboundQueue: Int
        /// How long a closing connection has to finish its close handshake before its socket
        /// is closed regardless.
        var closeGrace: Duration = .seconds(2)
    }

    /// An open connection: its queue, its socket for when the queue cannot get through, and
    /// when it last spoke.
    private struct Open: Sendable {
        var outbox: WebSocketOutbox
        var channel: any Channel
        var activity: ConnectionActivity
    }

    private let core: MessagingCore
    let limits: Limits
    private let logger: Logger
    /// Connections closed because they did not read what was sent to them.
    private let slowClientsDropped: Counter
    private let nextConnectionID = Atomic<UInt64>(1)
    /// Every open connection, so shutdown can say `goaway` to each and the idle sweep can
    /// close the silent.
    private let open = Mutex<[UInt64: Open]>([:])

    init(core: MessagingCore, limits: Limits, metrics: HookMetrics, logger: Logger) {
        self.core = core
        self.limits = limits
        self.logger = logger
        slowClientsDropped = metrics.makeCounter(
            subsystem: "connections", name: "slow_dropped", help: "Connections closed because their outbound queue was full."
        )
    }

    /// Upgrades a request for `/` that offers one of LeanCloud's subprotocols (or none) and
    /// serves the connection; anything else goes on to the HTTP routes.
    ///
    /// Decided here rather than with the router's `ws` route, whose request context keeps a
    /// reference to itself: every connection's context, logger and socket were never freed
    /// (about 4.6 KB a connection, measured with malloc_stats).
    func shouldUpgrade(_ request: HTTPRequest, channel: any Channel) -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
        let path = request.path.map { $0.prefix { $0 != "?" } }
        let offered = request.headerFields[.secWebSocketProtocol]
        guard path == "/", let chosen = Subprotocol.negotiate(offered: offered) else { return .dontUpgrade }
        let address = channel.remoteAddress?.ipAddress ?? "unknown"
        return .upgrade(offered != nil ? [.secWebSocketProtocol: chosen.rawValue] : [:]) { inbound, outbound, _ in
            await self.serve(inbound: inbound, outbound: outbound, channel: channel, codec: FrameCodec(subprotocol: chosen), remoteAddress: address)
        }
    }

    /// Tells every connected client to reconnect elsewhere, then closes its connection.
    func sayGoodbye() {
        let connections = open.withLock { Array($0.values) }
        for connection in connections {
            var goaway = GenericCommand()
            goaway.cmd = .goaway
            connection.outbox.send(goaway)
            close(connection.outbox, channel: connection.channel)
        }
    }

    private func serve(
        inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, channel: any Channel, codec: FrameCodec, remoteAddress: String
    ) async {
        let id = nextConnectionID.add(1, ordering: .relaxed).oldValue
        let outbox = WebSocketOutbox(
            channel: channel, codec: codec, capacity: limits.outboundQueue,
            onOverflow: { [logger, slowClientsDropped] in
                // It is not reading, so no close frame would reach it: close the socket.
                logger.warning("client too slow: outbound queue full, disconnected", metadata: ["connection": "\(id)"])
                slowClientsDropped.increment()
                channel.close(promise: nil)
            },
            // The socket is gone if this fails; the reader sees it too and ends the connection.
            sendClose: { try? await outbound.close(.normalClosure, reason: nil) }
        )
        let connection = Connection(id: id, outbox: outbox, remoteAddress: remoteAddress)
        let activity = ConnectionActivity()
        open.withLock { $0[id] = Open(outbox: outbox, channel: channel, activity: activity) }
        logger.debug("connection opened", metadata: ["connection": "\(id)", "address": "\(remoteAddress)", "protocol": "\(codec.subprotocol.rawValue)"])

        await read(inbound, codec: codec, connection: connection, activity: activity)
        outbox.close()

        open.withLock { $0[id] = nil }
        await core.connectionClosed(connection, silentFor: ContinuousClock.now - activity.lastSeen)
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

    /// Closes connections that said nothing for too long, or never opened a session. One
    /// sweep over all of them a second rather than a timer each: an idle connection then
    /// costs no task and no wake-up of its own.
    func closeIdleConnections(now: ContinuousClock.Instant = .now) {
        let connections = open.withLock { Array($0.values) }
        for connection in connections {
            let activity = connection.activity
            let error: GenericCommand
            if !activity.hasLoggedIn, now - activity.opened > limits.loginTimeout {
                error = .error(.loginTimeout, detail: "no session opened in time")
            } else if now - activity.lastSeen > limits.idleTimeout {
                error = .error(.readTimeout, detail: "connection idle")
            } else {
                continue
            }
            // Closing takes up to `closeGrace`: the next sweeps leave it be.
            guard activity.beginClosing() else { continue }
            connection.outbox.send(error)
            close(connection.outbox, channel: connection.channel)
        }
    }

    /// Closes a connection with the close handshake, and its socket after `closeGrace` if
    /// the handshake has not ended it by then (a client that reads nothing never answers).
    private func close(_ outbox: WebSocketOutbox, channel: any Channel) {
        outbox.close()
        channel.eventLoop.scheduleTask(in: .milliseconds(Int64(limits.closeGrace / .milliseconds(1)))) { channel.close(promise: nil) }
    }
}
