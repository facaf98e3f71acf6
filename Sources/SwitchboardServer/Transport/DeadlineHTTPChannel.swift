import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore

/// Hummingbird's HTTP/1 channel with the WebSocket upgrade, each connection first given a
/// `RequestHeadDeadline`.
struct DeadlineHTTPChannel: ServerChildChannel {
    let inner: HTTP1WebSocketUpgradeChannel
    let requestHeadDeadline: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1WebSocketUpgradeChannel.Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(RequestHeadDeadline(deadline: requestHeadDeadline), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger)
    }

    func handle(value: HTTP1WebSocketUpgradeChannel.Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
