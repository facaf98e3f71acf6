import Foundation

/// Bytes read from start to end a chunk at a time, so that what is read never has to fit in
/// memory whole: a file, a span of one, or an archive's entry as it is decompressed.
public protocol ByteSource: AnyObject {
    /// At most `limit` of the next bytes; empty only at the end.
    func read(upTo limit: Int) throws -> Data
}

/// Why an archive, or one of its entries, cannot be read. `description` is the reason alone:
/// the caller names the archive or the entry before it.
public struct ArchiveError: Error, CustomStringConvertible, Sendable, Equatable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }

    /// A gzip member's CRC-32 or length, at its end, is not that of what came before: some
    /// byte in it is wrong, and nothing says which.
    static let checksumMismatch = ArchiveError("the archive's checksum does not match: it is damaged somewhere")
}
