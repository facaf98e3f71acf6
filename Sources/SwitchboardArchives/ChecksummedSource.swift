import Foundation

/// A zip entry's bytes, counted and summed as they pass: at their end, a length or CRC-32
/// other than the central directory's is an error, and so are bytes past that length.
final class ChecksummedSource: ByteSource {
    private let source: any ByteSource
    private let size: UInt64
    private let crc: UInt32
    private var sum = CRC32()
    private var count: UInt64 = 0

    init(_ source: any ByteSource, size: UInt64, crc: UInt32) {
        self.source = source
        self.size = size
        self.crc = crc
    }

    func read(upTo limit: Int) throws -> Data {
        let chunk = try source.read(upTo: limit)
        count += UInt64(chunk.count)
        guard count <= size else { throw ArchiveError("damaged: it holds more than the \(size) bytes its header gives") }
        sum.update(chunk)
        if chunk.isEmpty {
            guard count == size else { throw ArchiveError("damaged: it holds \(count) bytes, its header gives \(size)") }
            guard sum.value == crc else { throw ArchiveError("damaged: its CRC-32 does not match its header's") }
        }
        return chunk
    }
}
