import Foundation

/// The lines of a file between two byte offsets, read a block at a time, each with the
/// offset just past it: a position to go on from.
struct FileLines: Sequence, IteratorProtocol {
    private let handle: FileHandle
    private var buffered = Data()
    /// The offset of `buffered`'s first byte.
    private var offset: Int
    private var unread: Int
    static let blockSize = 1 << 16

    init(path: String, from start: Int, to end: Int) throws {
        handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64(start))
        offset = start
        unread = end - start
    }

    mutating func next() -> (line: Data, end: Int)? {
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let length = newline - buffered.startIndex + 1
                let line = buffered.prefix(length - 1)
                buffered = buffered.dropFirst(length)
                offset += length
                return (Data(line), offset)
            }
            guard unread > 0, let block = try? handle.read(upToCount: Swift.min(Self.blockSize, unread)), !block.isEmpty else {
                try? handle.close()
                return nil
            }
            unread -= block.count
            buffered = Data(buffered) + block
        }
    }
}
