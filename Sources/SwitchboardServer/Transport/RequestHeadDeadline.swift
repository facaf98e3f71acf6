import NIOCore

/// Closes a connection on which the server has written nothing within `deadline` of its
/// opening. Until a request's head has fully arrived nothing else in the HTTP pipeline times
/// a connection out, so a client that sends half a request line would hold its socket for
/// good. The first byte the server writes (a response, or the WebSocket upgrade) means a
/// request arrived; from then on the HTTP idle timeout and the WebSocket watchdog take over.
final class RequestHeadDeadline: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = NIOAny

    private let deadline: TimeAmount
    private var timer: Scheduled<Void>?

    init(deadline: TimeAmount) {
        self.deadline = deadline
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: deadline) { channel.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    /// Its job done, it leaves the pipeline, which every later frame would otherwise pass
    /// through.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        disarm()
        context.write(data, promise: promise)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
    }
}
