import Foundation

/// A zip or a .tar.gz, read one entry at a time.
public protocol Archive: AnyObject {
    /// Every file entry (folders and links left out), each read through to its end once so
    /// that one whose bytes are damaged or cut short is known before anything is taken from
    /// it. Throws if the archive cannot be read at all.
    func check() throws -> ArchiveCheck

    /// The bytes of an entry `check` found. One source of an archive is read at a time: opening
    /// another entry may end the one before.
    func open(_ entry: ArchiveEntry) throws -> any ByteSource
}

public struct ArchiveEntry: Sendable, Equatable {
    /// Its place among the archive's file entries.
    public let index: Int
    /// Its path inside the archive, folders separated by `/`.
    public let path: String
    public let size: UInt64
    /// Why its bytes cannot be trusted (damaged, cut short); nil when they read whole.
    public var damage: String?
}

public struct ArchiveCheck: Sendable {
    public var entries: [ArchiveEntry]
    /// What went wrong with the archive outside its entries (a header past the last entry
    /// listed is damaged, the archive is cut short between entries): the entries listed
    /// are those that could be reached.
    public var problem: String?
}

/// Tells an archive by its first bytes, whatever the file is called.
public enum Archives {
    /// The archive at `path`, or nil when the file is not a zip or gzip one.
    public static func open(path: String) throws -> (any Archive)? {
        let start = try FileByteSource(path: path).read(upTo: 4)
        if start.starts(with: [0x50, 0x4B, 0x03, 0x04]) || start.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
            return try ZipArchive(path: path)
        }
        if start.starts(with: [0x1F, 0x8B]) { return TarGzArchive(path: path) }
        return nil
    }

    /// Reads an entry's bytes through, for `check`: its damage, or nil when they read whole.
    static func readThrough(_ source: any ByteSource) -> String? {
        do {
            while try !source.read(upTo: BufferedReader.block).isEmpty {}
            return nil
        } catch {
            return "\(error)"
        }
    }
}
