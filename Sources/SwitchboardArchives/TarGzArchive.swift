import Foundation

/// A gzip-compressed tar (`.tar.gz`, `.tgz`), what LeanCloud's data export gives. It can only
/// be read from its start: an entry is opened by reading on to it, from the start again
/// when it lies before the one last opened, so entries opened in order cost one pass.
public final class TarGzArchive: Archive {
    private let path: String
    private var tar: TarReader?
    /// The index of the entry `tar` is at.
    private var position = -1

    public init(path: String) {
        self.path = path
    }

    public func check() throws -> ArchiveCheck {
        let tar = TarReader(try InflatingSource(FileByteSource(path: path), format: .gzip))
        var check = ArchiveCheck(entries: [])
        do {
            while let entry = try tar.nextEntry() {
                var checked = ArchiveEntry(index: check.entries.count, path: entry.path, size: entry.size)
                checked.damage = Archives.readThrough(tar)
                check.entries.append(checked)
                // Past damaged compressed data nothing can be read: where the next entry starts is lost.
                if let damage = checked.damage {
                    if damage == ArchiveError.checksumMismatch.description { return Self.nothingTrusted(check) }
                    check.problem = "nothing after \(entry.path) can be read (\(damage))"
                    return check
                }
            }
            try tar.readToEnd()
        } catch let error as ArchiveError where error == .checksumMismatch {
            return Self.nothingTrusted(check)
        } catch {
            check.problem = check.entries.last.map { "damaged after \($0.path): \(error)" } ?? "\(error)"
        }
        return check
    }

    /// zlib checks a gzip member's CRC-32 at its very end: a mismatch there says some byte
    /// is wrong, not which, so no entry can be trusted.
    private static func nothingTrusted(_ check: ArchiveCheck) -> ArchiveCheck {
        var check = check
        for index in check.entries.indices { check.entries[index].damage = ArchiveError.checksumMismatch.description }
        check.problem = ArchiveError.checksumMismatch.description
        return check
    }

    public func open(_ entry: ArchiveEntry) throws -> any ByteSource {
        if tar == nil || position >= entry.index {
            tar = TarReader(try InflatingSource(FileByteSource(path: path), format: .gzip))
            position = -1
        }
        guard let tar else { throw ArchiveError("cannot be opened") }
        while position < entry.index {
            guard try tar.nextEntry() != nil else { throw ArchiveError("is no longer in the archive") }
            position += 1
        }
        return tar
    }
}
