import Foundation
import SwitchboardWire
#if canImport(Glibc)
import Glibc
#endif

/// A WebSocket client written byte by byte over a blocking socket, for what the SDKs' own
/// libraries never send: pings, fragments, close frames, commands by the hundred without
/// waiting for replies. Every read gives up after `timeout`.
final class RawWebSocket {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    struct Frame: Equatable {
        var fin = true
        var opcode: UInt8
        var payload: [UInt8]

        static let continuation: UInt8 = 0x0, text: UInt8 = 0x1, binary: UInt8 = 0x2, close: UInt8 = 0x8, ping: UInt8 = 0x9, pong: UInt8 = 0xA
    }

    /// How a client can vanish without a close frame.
    enum Drop {
        /// A FIN: the app closed its socket (or was killed, and the kernel closed it).
        case endOfInput
        /// A reset: the connection aborted.
        case reset
    }

    private var socket: Int32
    private var buffered: [UInt8] = []

    init(port: Int, subprotocol: String = "lc.protobuf2.3", timeout: Duration = .seconds(10)) throws {
        socket = try LoopbackTCP.connect(port: port)
        var wait = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        try write(Array((
            "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: \(subprotocol)\r\n\r\n"
        ).utf8))
        let terminator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int? { buffered.indices.dropLast(3).first { Array(buffered[$0..<$0 + 4]) == terminator }.map { $0 + 4 } }
        while headEnd == nil {
            guard try fill() else { throw Failure(description: "closed before the upgrade's answer") }
        }
        let end = headEnd!
        let head = String(decoding: buffered[..<end], as: UTF8.self)
        buffered.removeFirst(end)
        guard head.hasPrefix("HTTP/1.1 101") else { throw Failure(description: "not upgraded: \(head)") }
    }

    /// Runs `body` on a new thread: its reads block, which must not hold up the server's
    /// tasks.
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }

    deinit { if socket >= 0 { close(socket) } }

    /// Ends the connection as a killed app or a lost network does: no close frame.
    func drop(_ how: Drop) {
        switch how {
        case .endOfInput:
            shutdown(socket, Int32(SHUT_WR))
        case .reset:
            // Closing with a zero linger time sends a reset instead of a FIN.
            var abort = linger(l_onoff: 1, l_linger: 0)
            setsockopt(socket, SOL_SOCKET, SO_LINGER, &abort, socklen_t(MemoryLayout<linger>.size))
            close(socket)
            socket = -1
        }
    }

    /// Hands the socket over to the caller, who closes it: a connection that has sent its
    /// FIN stays open for reading, as a phone's whose network died would look to the server.
    func releaseSocket() -> Int32 {
        defer { socket = -1 }
        return socket
    }

    /// Sends `command` as one binary frame, encoded for `codec`'s subprotocol.
    func send(_ command: GenericCommand, codec: FrameCodec) throws {
        guard case .binary(let bytes) = codec.encode(command) else { throw Failure(description: "not a binary subprotocol") }
        try send([Frame(opcode: Frame.binary, payload: bytes)])
    }

    /// The next command the server sends, skipping control frames; nil once it has closed.
    func receiveCommand(codec: FrameCodec) throws -> GenericCommand? {
        while let frame = try receive() {
            if frame.opcode == Frame.close { return nil }
            guard frame.opcode == Frame.binary else { continue }
            return try codec.decode(.binary(frame.payload))
        }
        return nil
    }

    /// Writes `frames` in one go, each masked as a client must.
    func send(_ frames: [Frame]) throws {
        var bytes: [UInt8] = []
        for frame in frames {
            bytes.append((frame.fin ? 0x80 : 0) | frame.opcode)
            switch frame.payload.count {
            case ..<126: bytes.append(0x80 | UInt8(frame.payload.count))
            case ..<65536: bytes += [0x80 | 126, UInt8(frame.payload.count >> 8), UInt8(frame.payload.count & 0xFF)]
            default: bytes += [0x80 | 127] + (0..<8).reversed().map { UInt8((frame.payload.count >> ($0 * 8)) & 0xFF) }
            }
            let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
            bytes += mask
            bytes += frame.payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        }
        try write(bytes)
    }

    /// The next frame from the server, or nil when it has closed the socket.
    func receive() throws -> Frame? {
        guard try need(2) else { return nil }
        let fin = buffered[0] & 0x80 != 0, opcode = buffered[0] & 0x0F
        var length = Int(buffered[1] & 0x7F), headerLength = 2
        if length == 126 {
            guard try need(4) else { return nil }
            length = Int(buffered[2]) << 8 | Int(buffered[3])
            headerLength = 4
        } else if length == 127 {
            guard try need(10) else { return nil }
            length = buffered[2..<10].reduce(0) { $0 << 8 | Int($1) }
            headerLength = 10
        }
        guard try need(headerLength + length) else { return nil }
        let frame = Frame(fin: fin, opcode: opcode, payload: Array(buffered[headerLength..<headerLength + length]))
        buffered.removeFirst(headerLength + length)
        return frame
    }

    /// True once `count` bytes are buffered, false if the server closed first.
    private func need(_ count: Int) throws -> Bool {
        while buffered.count < count {
            guard try fill() else { return false }
        }
        return true
    }

    @discardableResult
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        var read = recv(socket, &chunk, chunk.count, 0)
        // A signal (SIGCHLD from another test's child process) interrupts the wait.
        while read < 0, errno == EINTR { read = recv(socket, &chunk, chunk.count, 0) }
        guard read >= 0 else { throw Failure(description: "recv: \(errno) (timed out?)") }
        buffered += chunk[..<read]
        return read > 0
    }

    private func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw Failure(description: "send: \(errno)") }
            offset += written
        }
    }
}
