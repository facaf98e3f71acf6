import NIOCore
import NIOWebSocket
import SwitchboardWire

/// One upgraded WebSocket, on its event loop: hands each message to the connection's
/// `FrameQueue`, answers pings, and takes part in the close handshake. Reading stops while
/// the queue is full, so a client that sends faster than the core handles waits in TCP.
///
/// Sits after NIO's frame decoder and `NIOWebSocketFrameAggregator`, so what arrives is a
/// whole message or a control frame.
final class WebSocketConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let queue: FrameQueue
    private let received: @Sendable () -> Void
    private var closeSent = false
    private var ended = false

    /// - Parameter received: called for each message, ping and pong, when it arrives.
    init(queue: FrameQueue, received: @escaping @Sendable () -> Void) {
        self.queue = queue
        self.received = received
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .binary:
            received()
            queue.push(.frame(.binary(Self.unmaskedBytes(of: frame))))
        case .text:
            received()
            queue.push(.frame(.text(String(decoding: frame.unmaskedData.readableBytesView, as: UTF8.self))))
        case .ping where frame.fin:
            // LeanCloud's phone SDKs keep an idle connection alive with pings alone.
            received()
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .pong where frame.fin:
            received()
        case .connectionClose:
            // Answered, unless it answers ours; either way the handshake is over.
            let reply = closeSent ? nil : Self.closeFrame(echoing: frame.unmaskedData, allocator: context.channel.allocator)
            closeSent = true
            let channel = context.channel
            guard let reply else {
                channel.close(promise: nil)
                return
            }
            context.writeAndFlush(wrapOutboundOut(reply)).whenComplete { _ in channel.close(promise: nil) }
        default:
            closeWithError(.protocolError, context: context)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if unwrapOutboundIn(data).opcode == .connectionClose {
            // One close frame a connection: the handshake may already have run.
            guard !closeSent else {
                promise?.succeed()
                return
            }
            closeSent = true
        }
        context.write(data, promise: promise)
    }

    func read(context: ChannelHandlerContext) {
        guard !queue.pauseReadingIfFull() else { return }
        context.read()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The server allows remote half-closure (for HTTP), so a client's FIN arrives as this
        // event instead of closing the channel. LeanCloud's SDKs never half-close a
        // WebSocket: end of input means the client is gone (its app killed, its network
        // dropped), and waiting for the idle sweep would keep it online for minutes.
        if let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        end()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        end()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case is NIOWebSocketError:
            // NIO's protocol error handler, earlier in the pipeline, has answered it.
            break
        case NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge, NIOWebSocketFrameAggregator.Error.tooManyFragments:
            closeWithError(.messageTooLarge, context: context)
        case is NIOWebSocketFrameAggregator.Error:
            closeWithError(.protocolError, context: context)
        default:
            context.close(promise: nil)
        }
    }

    private func end() {
        guard !ended else { return }
        ended = true
        queue.push(.end)
    }

    private func closeWithError(_ code: WebSocketErrorCode, context: ChannelHandlerContext) {
        guard !closeSent else {
            context.close(promise: nil)
            return
        }
        closeSent = true
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: code)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    /// A message's payload, unmasked as it is copied out of the read buffer: through
    /// `unmaskedData` every message a client sent was copied twice.
    private static func unmaskedBytes(of frame: WebSocketFrame) -> [UInt8] {
        var bytes = Array(frame.data.readableBytesView)
        if let key = frame.maskKey {
            for index in bytes.indices { bytes[index] ^= key[index & 3] }
        }
        return bytes
    }

    /// The reply to a client's close frame: its status code back, or none if it gave none.
    private static func closeFrame(echoing data: ByteBuffer, allocator: ByteBufferAllocator) -> WebSocketFrame {
        var reply = allocator.buffer(capacity: 2)
        if data.readableBytes >= 2, let code = data.getInteger(at: data.readerIndex, as: UInt16.self) {
            reply.writeInteger(code)
        }
        return WebSocketFrame(fin: true, opcode: .connectionClose, data: reply)
    }
}
