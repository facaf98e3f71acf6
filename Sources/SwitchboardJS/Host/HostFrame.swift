#if canImport(Glibc)
import Glibc
#endif

/// The framing between the server and its script hosts: a little-endian 32-bit length,
/// then that many bytes. Both ends read and write whole frames on blocking pipes.
enum HostFrame {
    /// Larger frames mean a confused peer: a script's source and a call's params are far below.
    static let maxLength = 64 << 20

    struct Broken: Error {}

    static func write(_ body: [UInt8], to fd: Int32) throws(Broken) {
        var frame = withUnsafeBytes(of: UInt32(body.count).littleEndian, Array.init)
        frame += body
        var sent = 0
        while sent < frame.count {
            let written = frame.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + sent, $0.count - sent) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw Broken() }
            sent += written
        }
    }

    /// The next frame's body; nil at end of file.
    static func read(from fd: Int32) throws(Broken) -> [UInt8]? {
        guard let header = try readExactly(4, from: fd) else { return nil }
        let length = header.withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self))) }
        guard length <= maxLength else { throw Broken() }
        guard let body = try readExactly(length, from: fd) else { throw Broken() }
        return body
    }

    private static func readExactly(_ count: Int, from fd: Int32) throws(Broken) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var received = 0
        while received < count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + received, count - received) }
            if got < 0, errno == EINTR { continue }
            if got == 0, received == 0 { return nil }
            guard got > 0 else { throw Broken() }
            received += got
        }
        return bytes
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
