import Foundation
import SwitchboardArchives

/// Lines of a byte source, read a block at a time: what it holds is the line being read and
/// one block.
struct LineReader {
    static let block = 1 << 20

    private let source: any ByteSource
    private var buffer = Data()
    /// Where the unread part of `buffer` starts.
    private var position = 0
    private var atEnd = false
    private var number = 0

    init(_ source: any ByteSource) {
        self.source = source
    }

    /// The next line with something on it, without consuming anything.
    mutating func peekNonBlankLine() throws -> String? {
        var start = position
        while true {
            while let newline = Self.newline(in: buffer, from: start) {
                let line = buffer[start..<newline]
                if line.contains(where: { !Self.isBlank($0) }) { return String(decoding: line, as: UTF8.self) }
                start = newline + 1
            }
            let consumed = start - position
            guard try fill() else {
                let rest = buffer[(position + consumed)...]
                return rest.contains(where: { !Self.isBlank($0) }) ? String(decoding: rest, as: UTF8.self) : nil
            }
            start = position + consumed
        }
    }

    /// The next line and its number (from 1), or nil at the end.
    mutating func nextLine() throws -> (Int, String)? {
        while true {
            if let newline = Self.newline(in: buffer, from: position) {
                let line = Self.text(of: buffer, from: position, to: newline)
                position = newline + 1
                number += 1
                return (number, line)
            }
            guard try fill() else {
                guard position < buffer.endIndex else { return nil }
                let line = String(decoding: buffer[position...], as: UTF8.self)
                position = buffer.endIndex
                number += 1
                return (number, line)
            }
        }
    }

    /// Everything not read yet, whole: a file that is one JSON document.
    mutating func rest() throws -> Data {
        while try fill() {}
        defer { position = buffer.endIndex }
        return Data(buffer[position...])
    }

    /// Where the first newline at or past `start` is: memchr over the bytes, where Data's
    /// search by element checks exclusive access at every byte (a tenth of an import's time).
    private static func newline(in buffer: Data, from start: Int) -> Int? {
        buffer.withUnsafeBytes { bytes in
            guard start < bytes.count, let base = bytes.baseAddress,
                  let found = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
            else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
    }

    private static func text(of buffer: Data, from start: Int, to end: Int) -> String {
        buffer.withUnsafeBytes { bytes in String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) }
    }

    /// Adds a block to the buffer, dropping what was read before it, so the buffer holds the
    /// unread part of a line and a block.
    private mutating func fill() throws -> Bool {
        guard !atEnd else { return false }
        let block = try source.read(upTo: Self.block)
        if block.isEmpty {
            atEnd = true
            return false
        }
        buffer = Data(buffer[position...]) + block
        position = 0
        return true
    }

    static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\t")
    }
}
