import Foundation

/// A byte source read in exact counts (an archive's headers) or passed through in chunks (an
/// entry's data), holding at most one block of it.
final class BufferedReader {
    static let block = 1 << 20

    private let source: any ByteSource
    private var buffer = Data()
    private var position = 0

    init(_ source: any ByteSource) {
        self.source = source
    }

    /// Exactly `count` bytes; nil if the source ends first (with what there was left unread).
    func read(exactly count: Int) throws -> [UInt8]? {
        while buffer.endIndex - position < count {
            let block = try source.read(upTo: max(Self.block, count))
            guard !block.isEmpty else { return nil }
            buffer = Data(buffer[position...]) + block
            position = buffer.startIndex
        }
        defer { position += count }
        return Array(buffer[position..<position + count])
    }

    /// At most `limit` of the next bytes, empty at the end.
    func read(upTo limit: Int) throws -> Data {
        if position == buffer.endIndex {
            buffer = try source.read(upTo: max(limit, Self.block))
            position = buffer.startIndex
        }
        let end = min(buffer.endIndex, position + limit)
        defer { position = end }
        return Data(buffer[position..<end])
    }

    /// Reads past `count` bytes; false if the source ends first.
    func skip(_ count: UInt64) throws -> Bool {
        var left = count
        while left > 0 {
            let chunk = try read(upTo: Int(min(left, UInt64(Self.block))))
            guard !chunk.isEmpty else { return false }
            left -= UInt64(chunk.count)
        }
        return true
    }

    /// Whether anything is left, reading ahead if need be.
    func atEnd() throws -> Bool {
        if position < buffer.endIndex { return false }
        buffer = try source.read(upTo: Self.block)
        position = buffer.startIndex
        return buffer.isEmpty
    }
}
