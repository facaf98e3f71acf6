import Foundation

/// A file's bytes, or the span of `length` bytes from `offset` (a zip entry's compressed
/// data). A span the file ends inside of is an error: the file was cut short.
public final class FileByteSource: ByteSource {
    private let handle: FileHandle
    private var remaining: UInt64?

    public init(path: String, offset: UInt64 = 0, length: UInt64? = nil) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ArchiveError("cannot be opened") }
        self.handle = handle
        self.remaining = length
        if offset > 0 { try handle.seek(toOffset: offset) }
    }

    deinit {
        try? handle.close()
    }

    public func read(upTo limit: Int) throws -> Data {
        guard let remaining else { return try handle.read(upToCount: limit) ?? Data() }
        guard remaining > 0 else { return Data() }
        let block = try handle.read(upToCount: Int(min(UInt64(limit), remaining))) ?? Data()
        guard !block.isEmpty else { throw ArchiveError("the file ends \(remaining) bytes early (cut short?)") }
        self.remaining = remaining - UInt64(block.count)
        return block
    }
}
