import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOWebSocket

/// Each accepted connection: HTTP/1 for the REST API, or, when its first request asks for
/// it, a WebSocket served by `WebSocketGateway` with channel handlers and no task of its own.
///
/// In place of HummingbirdWebSocket's channel, which gives each WebSocket a task for its
/// whole life: that task kept its deepest async stack, about 23 KB a connection.
struct HTTPAndWebSocketChannel: ServerChildChannel, HTTPChannelHandler {
    enum Negotiated: Sendable {
        /// An upgraded WebSocket, and when its gateway has finished with it.
        case webSocket(EventLoopFuture<Void>)
        case http(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
        /// An upgrade the gateway refused: answered 400.
        case refusedUpgrade(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
    }

    struct Value: ServerChildChannelValue {
        let negotiated: EventLoopFuture<Negotiated>
        let channel: any Channel
    }

    let responder: HTTPChannelHandler.Responder
    let gateway: WebSocketGateway
    let httpIdleTimeout: Duration
    let requestHeadDeadline: TimeAmount

    init(responder: @escaping HTTPChannelHandler.Responder, gateway: WebSocketGateway, httpIdleTimeout: Duration, requestHeadDeadline: TimeAmount) {
        self.responder = Self.refusingLateUpgrades(responder)
        self.gateway = gateway
        self.httpIdleTimeout = httpIdleTimeout
        self.requestHeadDeadline = requestHeadDeadline
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(RequestHeadDeadline(deadline: requestHeadDeadline), position: .first)
            // Asked for by the request's upgrade headers, whether the gateway accepts or not.
            let upgradeAttempted = NIOLoopBoundBox(false, eventLoop: channel.eventLoop)
            let upgrader = NIOTypedWebSocketServerUpgrader<Negotiated>(
                maxFrameSize: gateway.limits.maxFrameBytes,
                shouldUpgrade: { [gateway] channel, head in
                    upgradeAttempted.value = true
                    return channel.eventLoop.makeSucceededFuture(gateway.upgradeHeaders(for: head))
                },
                upgradePipelineHandler: { [gateway] channel, head in
                    channel.eventLoop.makeCompletedFuture { .webSocket(try gateway.serve(channel, head: head)) }
                }
            )
            var configuration = NIOUpgradableHTTPServerPipelineConfiguration<Negotiated>(
                upgradeConfiguration: NIOTypedHTTPServerUpgradeConfiguration(
                    upgraders: [upgrader],
                    notUpgradingCompletionHandler: { [httpIdleTimeout] channel in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                            try channel.pipeline.syncOperations.addHandler(HTTPConnectionStateHandler(idleTimeout: httpIdleTimeout, logger: logger))
                            let http = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                                wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true)
                            )
                            return upgradeAttempted.value ? .refusedUpgrade(http) : .http(http)
                        }
                    }
                )
            )
            // As Hummingbird's own HTTP channel: it pipelines, handles errors and validates
            // response headers itself.
            configuration.enablePipelining = false
            configuration.enableErrorHandling = false
            configuration.enableResponseHeaderValidation = false
            let negotiated = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(configuration: configuration)
            return Value(negotiated: negotiated, channel: channel)
        }
    }

    func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.negotiated.get() {
            case .webSocket(let finished):
                // Hummingbird's graceful shutdown waits for this, as it does for HTTP.
                try await finished.get()
            case .http(let http):
                await handleHTTP(asyncChannel: http, logger: logger)
            case .refusedUpgrade(let http):
                try await http.executeThenClose { _, outbound in
                    try await outbound.write(contentsOf: [
                        .head(HTTPResponse(status: .badRequest, headerFields: [.connection: "close", .contentLength: "0"])), .end(nil),
                    ])
                }
            }
        } catch {
            logger.debug("connection ended with an error", metadata: ["error": "\(error)"])
        }
    }

    /// NIO upgrades only a connection's first request. A later request on the same
    /// connection that asks for a WebSocket is sent to open a new connection (307 to
    /// itself, then close) rather than answered as plain HTTP.
    private static func refusingLateUpgrades(_ responder: @escaping HTTPChannelHandler.Responder) -> HTTPChannelHandler.Responder {
        struct ClosingAfterRedirect: Error {}
        return { request, writer, channel in
            guard request.headers[.upgrade]?.lowercased() == "websocket" else {
                try await responder(request, writer, channel)
                return
            }
            let location = request.uri.query.map { "\(request.uri.path)?\($0)" } ?? request.uri.path
            try await writer.writeResponse(HTTPResponse(status: .temporaryRedirect, headerFields: [.connection: "close", .location: location]))
            throw ClosingAfterRedirect()
        }
    }
}
