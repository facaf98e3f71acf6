import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of the HTTP and WebSocket router: Hummingbird's basics plus the
/// peer address, which logs and hooks report as `sourceIP`, and the channel, which the
/// gateway closes itself when a client stops reading (a close handshake cannot reach it).
public struct GatewayContext: RequestContext, WebSocketRequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<Self>
    public let remoteAddress: SocketAddress?
    let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }
}
