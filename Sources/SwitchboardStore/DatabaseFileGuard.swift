import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Notices when the database file the store opened is no longer the one at its path
/// (deleted, or replaced). SQLite keeps writing to the unlinked file without complaint, so
/// every commit would still succeed and every message be acknowledged, then vanish at the
/// next restart. Once noticed, the store refuses writes until it is restarted.
final class DatabaseFileGuard: Sendable {
    struct FileGone: Error, CustomStringConvertible {
        let path: String
        var description: String { "the database file \(path) was deleted or replaced while the server ran; writes are refused until a restart" }
    }

    private struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64
    }

    let path: String
    private let opened: Identity?
    private let broken = Atomic<Bool>(false)

    init(path: String) {
        self.path = path
        opened = Self.identity(of: path)
    }

    var isBroken: Bool { broken.load(ordering: .relaxed) }

    /// Throws when the file at `path` is not the one opened; from then on always.
    func check() throws {
        if !isBroken, Self.identity(of: path) == opened { return }
        broken.store(true, ordering: .relaxed)
        throw FileGone(path: path)
    }

    private static func identity(of path: String) -> Identity? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }
}
