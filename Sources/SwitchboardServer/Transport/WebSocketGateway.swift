import Foundation
import Logging
import Metrics
import NIOCore
import NIOHTTP1
import NIOWebSocket
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

    /// An open connection: its queue, its socket for when the queue cannot get through, when
    /// it last spoke, and what it sent that waits to be handled.
    private struct Open: Sendable {
        var outbox: WebSocketOutbox
        var channel: any Channel
        var activity: ConnectionActivity
        var inbound: FrameQueue
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
    /// Gives back what a wave of closed connections left free in malloc's heaps.
    private let memoryTrim: MemoryTrim

    init(core: MessagingCore, limits: Limits, metrics: HookMetrics, logger: Logger) {
        self.core = core
        self.limits = limits
        self.logger = logger
        memoryTrim = MemoryTrim(logger: logger)
        slowClientsDropped = metrics.makeCounter(
            subsystem: "connections", name: "slow_dropped", help: "Connections closed because their outbound queue was full."
        )
    }

    /// The response headers that accept a request's WebSocket upgrade, or nil to refuse it:
    /// it must be for `/` and offer one of LeanCloud's subprotocols (or none).
    func upgradeHeaders(for head: HTTPRequestHead) -> HTTPHeaders? {
        guard let subprotocol = Self.subprotocol(for: head) else { return nil }
        return head.headers.contains(name: "Sec-WebSocket-Protocol") ? ["Sec-WebSocket-Protocol": subprotocol.rawValue] : [:]
    }

    private static func subprotocol(for head: HTTPRequestHead) -> Subprotocol? {
        guard head.uri.prefix(while: { $0 != "?" }) == "/" else { return nil }
        let offered = head.headers["Sec-WebSocket-Protocol"]
        return Subprotocol.negotiate(offered: offered.isEmpty ? nil : offered.joined(separator: ","))
    }

    /// Serves an upgraded connection: adds its handlers to `channel`'s pipeline (on its
    /// event loop) and returns when the gateway has finished with it.
    func serve(_ channel: any Channel, head: HTTPRequestHead) throws -> EventLoopFuture<Void> {
        guard let subprotocol = Self.subprotocol(for: head) else { throw ChannelError.inappropriateOperationForState }
        let codec = FrameCodec(subprotocol: subprotocol)
        let id = nextConnectionID.add(1, ordering: .relaxed).oldValue
        let outbox = WebSocketOutbox(
            channel: channel, codec: codec, capacity: limits.outboundQueue,
            onOverflow: { [logger, slowClientsDropped] in
                // It is not reading, so no close frame would reach it: close the socket.
                logger.warning("client too slow: outbound queue full, disconnected", metadata: ["connection": "\(id)"])
                slowClientsDropped.increment()
                channel.close(promise: nil)
            }
        )
        let remoteAddress = channel.remoteAddress?.ipAddress ?? "unknown"
        let connection = Connection(id: id, outbox: outbox, remoteAddress: remoteAddress, missedMessages: subprotocol.missedMessages)
        let activity = ConnectionActivity()

        let finished = channel.eventLoop.makePromise(of: Void.self)
        let queue = FrameQueue(
            work: { [self] item in
                switch item {
                case .frame(let frame):
                    await handle(frame, codec: codec, connection: connection, activity: activity)
                case .end:
                    outbox.close()
                    open.withLock { $0[id] = nil }
                    await core.connectionClosed(connection, silentFor: ContinuousClock.now - activity.lastSeen)
                    memoryTrim.connectionClosed()
                    logger.debug("connection closed", metadata: ["connection": "\(id)"])
                    finished.succeed()
                }
            },
            resumeReading: { channel.read() }
        )
        do {
            try channel.pipeline.syncOperations.addHandlers([
                NIOWebSocketFrameAggregator(
                    minNonFinalFragmentSize: 1, maxAccumulatedFrameCount: Self.maxFragments, maxAccumulatedFrameSize: limits.maxFrameBytes
                ),
                WebSocketConnectionHandler(queue: queue, received: { activity.touch() }),
            ])
        } catch {
            // NIO requires every promise to be completed.
            finished.fail(error)
            throw error
        }
        open.withLock { $0[id] = Open(outbox: outbox, channel: channel, activity: activity, inbound: queue) }
        logger.debug("connection opened", metadata: ["connection": "\(id)", "address": "\(remoteAddress)", "protocol": "\(subprotocol.rawValue)"])
        return finished.futureResult
    }

    /// Fragments one message may come in; browsers and the SDKs send one.
    private static let maxFragments = 256

    private func handle(_ frame: Frame, codec: FrameCodec, connection: Connection, activity: ConnectionActivity) async {
        let command: GenericCommand
        do {
            command = try codec.decode(frame)
        } catch {
            logger.notice("unparseable frame", metadata: ["connection": "\(connection.id)", "error": "\(error)"])
            connection.outbox.send(.error(.unparseableRawMessage, detail: "\(error)"))
            return
        }
        // The push channel's `login` is a login too: a connection may carry only it.
        if (command.cmd == .session && command.op == .open) || command.cmd == .login { activity.loggedIn() }
        await core.handle(command, on: connection)
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

    /// Closes connections that said nothing for too long, or never opened a session, and
    /// lets go of the tasks of those with nothing to handle. One sweep over all of them a
    /// second rather than a timer each: an idle connection then costs no task and no
    /// wake-up of its own. Returns free memory to the system after a wave of closes.
    func closeIdleConnections(now: ContinuousClock.Instant = .now) {
        memoryTrim.sweep(now: now)
        let connections = open.withLock { Array($0.values) }
        for connection in connections {
            connection.inbound.releaseIdleWorker()
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
