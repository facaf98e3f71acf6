#if canImport(Glibc)
import Glibc
#endif

/// The framing between the server and its script hosts: a little-endian 32-bit length,
/// then that many bytes. Both ends read and write whole frames; the server's end of the
/// requests' pipe is non-blocking (see `HostOutbox`).
enum HostFrame {
    /// Larger frames mean a confused peer: a script's source and a call's params are far below.
    static let maxLength = 64 << 20

    struct Broken: Error {}

    /// Adds `body` to `frames` as one more frame.
    static func append(_ body: [UInt8], to frames: inout [UInt8]) {
        withUnsafeBytes(of: UInt32(body.count).littleEndian) { frames.append(contentsOf: $0) }
        frames += body
    }

    /// Writes whole frames, as built by `append`; on a non-blocking descriptor, waits for
    /// room when the pipe is full.
    static func write(frames: [UInt8], to fd: Int32) throws(Broken) {
        var sent = 0
        while true {
            guard let written = writeWhatFits(frames[sent...], to: fd) else { throw Broken() }
            sent += written
            guard sent < frames.count else { return }
            var room = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&room, 1, -1)
        }
    }

    /// Writes what a non-blocking pipe takes now, without waiting; returns how many bytes,
    /// nil if the pipe is broken.
    static func writeWhatFits(_ frames: ArraySlice<UInt8>, to fd: Int32) -> Int? {
        var sent = 0
        while sent < frames.count {
            let written = frames.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + sent, $0.count - sent) }
            if written < 0, errno == EINTR { continue }
            if written < 0, errno == EAGAIN { break }
            guard written > 0 else { return nil }
            sent += written
        }
        return sent
    }
}

/// The frames arriving on one pipe, read in as large pieces as the pipe holds: a peer that
/// sends many frames at once costs one `read`, not two a frame.
struct HostFrameInput {
    private static let size = 64 << 10
    private let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: size)
    /// Where the next frame starts, and where what was read ends.
    private var start = 0
    private var end = 0

    init(fd: Int32) {
        self.fd = fd
    }

    /// Whether a whole frame has been read in and waits: `next` returns it without reading.
    var hasWholeFrame: Bool {
        frameLength.map { end - start >= 4 + $0 } ?? false
    }

    /// The next frame's body; nil at end of file.
    mutating func next() throws(HostFrame.Broken) -> [UInt8]? {
        guard try fill(to: 4) else { return nil }
        guard let length = frameLength, length <= HostFrame.maxLength, try fill(to: 4 + length) else { throw HostFrame.Broken() }
        defer { start += 4 + length }
        return Array(buffer[start + 4..<start + 4 + length])
    }

    private var frameLength: Int? {
        guard end - start >= 4 else { return nil }
        return buffer[start..<start + 4].withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self))) }
    }

    /// Reads until `count` bytes from `start` are here; false at an end of file with nothing
    /// left, a broken frame at an end of file within one.
    private mutating func fill(to count: Int) throws(HostFrame.Broken) -> Bool {
        if start == end {
            (start, end) = (0, 0)
            // A large script's source is read once; its room need not stay.
            if buffer.count > Self.size { buffer = [UInt8](repeating: 0, count: Self.size) }
        }
        while end - start < count {
            if start + count > buffer.count {
                buffer.withUnsafeMutableBytes { bytes in
                    _ = memmove(bytes.baseAddress!, bytes.baseAddress! + start, end - start)
                }
                (start, end) = (0, end - start)
                if count > buffer.count { buffer += repeatElement(0, count: count - buffer.count) }
            }
            let got = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + end, $0.count - end) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else {
                guard got == 0, start == end else { throw HostFrame.Broken() }
                return false
            }
            end += got
        }
        return true
    }
}

/// Builds a frame body field by field.
struct HostFrameWriter {
    private(set) var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func integer(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ value: String) {
        integer(Int64(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }

    mutating func strings(_ values: [String]) {
        integer(Int64(values.count))
        for value in values { string(value) }
    }
}

/// Reads a frame body field by field, in the order it was written.
struct HostFrameReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func byte() throws(HostFrame.Broken) -> UInt8 {
        guard offset < bytes.count else { throw HostFrame.Broken() }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func integer() throws(HostFrame.Broken) -> Int64 {
        guard offset + 8 <= bytes.count else { throw HostFrame.Broken() }
        defer { offset += 8 }
        return bytes[offset..<offset + 8].withUnsafeBytes { Int64(littleEndian: $0.loadUnaligned(as: Int64.self)) }
    }

    mutating func string() throws(HostFrame.Broken) -> String {
        let count = try integer()
        guard count >= 0, offset + Int(count) <= bytes.count else { throw HostFrame.Broken() }
        defer { offset += Int(count) }
        return String(decoding: bytes[offset..<offset + Int(count)], as: UTF8.self)
    }

    mutating func strings() throws(HostFrame.Broken) -> [String] {
        let count = try integer()
        guard count >= 0, count <= bytes.count else { throw HostFrame.Broken() }
        return try (0..<count).map { _ throws(HostFrame.Broken) in try string() }
    }
}
