import NIOCore
import NIOWebSocket
import Synchronization
import SwitchboardCore
import SwitchboardWire

/// The core's `Outbox` for one WebSocket: the caller encodes each command and hands the
/// frame to the connection's event loop, which writes the frames in the order they came.
///
/// Written straight to the channel rather than through a writer task per connection: the
/// task woken for every frame made a message cost 1.1 to 1.3 times the CPU, and an idle
/// connection held one.
///
/// What waits unwritten is bounded. A client that stops reading lets frames pile up in its
/// channel, and is disconnected (`onOverflow`) once `capacity` wait there rather than let
/// memory grow: what it missed is still queued in the store and is delivered again when it
/// reconnects.
final class WebSocketOutbox: Outbox {
    private let channel: any Channel
    private let codec: FrameCodec
    private let capacity: Int
    private let queued = Atomic<Int>(0)
    /// Frames sent and not yet taken by the loop.
    private let handedOver = Mutex<[WebSocketFrame]>([])
    private let closed = Atomic<Bool>(false)
    private let onOverflow: @Sendable () -> Void

    /// - Parameters:
    ///   - capacity: commands that may wait to be written.
    ///   - onOverflow: called once, when a command finds `capacity` waiting.
    init(channel: any Channel, codec: FrameCodec, capacity: Int, onOverflow: @escaping @Sendable () -> Void) {
        self.channel = channel
        self.codec = codec
        self.capacity = capacity
        self.onOverflow = onOverflow
    }

    func send(_ command: GenericCommand) {
        write(codec.encode(command))
    }

    func send(_ shared: SharedCommand, to peerID: String) {
        write(codec.encode(shared, addressedTo: peerID))
    }

    private func write(_ encoded: @autoclosure () -> Frame) {
        guard !closed.load(ordering: .relaxed) else { return }
        let frame = switch encoded() {
        case .binary(let bytes): WebSocketFrame(fin: true, opcode: .binary, data: ByteBuffer(bytes: bytes))
        case .text(let text): WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: text))
        }
        let startsHandOver = handedOver.withLock { frames in
            frames.append(frame)
            return frames.count == 1
        }
        // One hop to the loop for every frame sent while the last hop waited, and one write
        // of them all to the socket: a frame per system call cost a wake-up of the reader
        // each, and woke the loop once per frame.
        if startsHandOver { channel.eventLoop.execute { [self] in writeHandedOver() } }
    }

    /// On the loop: writes the frames handed over since the last time, in the order they came.
    private func writeHandedOver() {
        let frames = handedOver.withLock { frames in
            defer { frames.removeAll(keepingCapacity: true) }
            return frames
        }
        // Counted from here, not from the caller: frames the loop has yet to reach are the
        // server's own lag (a burst of replies to a client's burst of commands), not the
        // client's. A write the socket takes completes within the flush, so a batch larger
        // than `capacity` is flushed as it goes before it counts as a full queue.
        for frame in frames {
            if queued.load(ordering: .relaxed) >= capacity { channel.flush() }
            guard queued.add(1, ordering: .relaxed).newValue <= capacity else {
                queued.subtract(1, ordering: .relaxed)
                if !closed.exchange(true, ordering: .relaxed) { onOverflow() }
                break
            }
            channel.write(frame).whenComplete { [self] _ in
                queued.subtract(1, ordering: .relaxed)
            }
        }
        channel.flush()
    }

    var backlog: Int { queued.load(ordering: .relaxed) }

    var isOpen: Bool { channel.isActive }

    /// Starts the close handshake after the frames sent before it.
    func close() {
        guard !closed.exchange(true, ordering: .relaxed) else { return }
        channel.eventLoop.execute { [channel] in
            var code = channel.allocator.buffer(capacity: 2)
            code.write(webSocketErrorCode: .normalClosure)
            channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, data: code), promise: nil)
        }
    }
}
