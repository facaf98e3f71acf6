import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc

/// Reports files written, moved in, moved out or deleted in a folder and the folders below
/// it, through inotify, as paths relative to the folder (`name.js`, `project/cloud/x.js`).
/// Files are reported once closed after writing, so a half-written file is never read; a
/// folder created or moved in is watched too, and reported itself, since files may land in
/// it before its watch is in place. Hidden files and folders are left out.
public enum DirectoryWatcher {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    private static let mask = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM) | UInt32(IN_DELETE) | UInt32(IN_CREATE)

    /// Paths as they change; ending the stream's iteration stops watching.
    public static func changes(in directory: String) throws(Failure) -> AsyncStream<String> {
        let descriptor = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        guard descriptor >= 0 else { throw Failure(description: "inotify_init1: \(String(cString: strerror(errno)))") }
        var folders = Folders(descriptor: descriptor, root: directory)
        guard folders.watch("") else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Failure(description: "cannot watch \(directory): \(reason)")
        }
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        let stopped = Stopped()
        continuation.onTermination = { _ in stopped.flag.store(true, ordering: .relaxed) }
        let thread = Thread { [folders] in
            var folders = folders
            defer {
                close(descriptor)
                continuation.finish()
            }
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while !stopped.flag.load(ordering: .relaxed) {
                // Wakes up now and then to notice that nobody listens any more.
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 250) > 0 else { continue }
                let count = read(descriptor, &buffer, buffer.count)
                guard count > 0 else { continue }
                for event in events(in: buffer[..<count]) {
                    guard let folder = folders.paths[event.watch], !event.name.hasPrefix(".") else { continue }
                    let path = folder.isEmpty ? event.name : folder + "/" + event.name
                    let isFolder = event.mask & UInt32(IN_ISDIR) != 0
                    if isFolder, event.mask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) != 0 { _ = folders.watch(path) }
                    // A file is reported when written and closed, not when created empty.
                    if !isFolder, event.mask & UInt32(IN_CREATE) != 0 { continue }
                    continuation.yield(path)
                }
            }
        }
        thread.name = "switchboard.watcher"
        thread.start()
        return stream
    }

    /// The watched folders by watch descriptor, relative to the root ("" for the root).
    private struct Folders: Sendable {
        let descriptor: Int32
        let root: String
        var paths: [Int32: String] = [:]

        /// Watches a folder and the folders below it; false if the folder itself cannot be.
        mutating func watch(_ relative: String) -> Bool {
            let path = relative.isEmpty ? root : root + "/" + relative
            let added = inotify_add_watch(descriptor, path, DirectoryWatcher.mask)
            guard added >= 0 else { return false }
            paths[added] = relative
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] where !name.hasPrefix(".") {
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: path + "/" + name, isDirectory: &isFolder), isFolder.boolValue {
                    _ = watch(relative.isEmpty ? name : relative + "/" + name)
                }
            }
            return true
        }
    }

    /// Reads the `struct inotify_event` records: wd, mask, cookie, len, then `len` bytes of
    /// NUL-padded name.
    private static func events(in bytes: ArraySlice<UInt8>) -> [(watch: Int32, mask: UInt32, name: String)] {
        var events: [(watch: Int32, mask: UInt32, name: String)] = []
        var offset = bytes.startIndex
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= bytes.endIndex {
            let watch = bytes[offset..<(offset + 4)].withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }
            let mask = bytes[(offset + 4)..<(offset + 8)].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
            let length = bytes[(offset + 12)..<(offset + 16)].withUnsafeBytes { Int($0.loadUnaligned(as: UInt32.self)) }
            let nameStart = offset + header
            let nameEnd = min(nameStart + length, bytes.endIndex)
            let name = bytes[nameStart..<nameEnd].prefix { $0 != 0 }
            if !name.isEmpty { events.append((watch, mask, String(decoding: name, as: UTF8.self))) }
            offset = nameStart + length
        }
        return events
    }

    private final class Stopped: Sendable {
        let flag = Atomic<Bool>(false)
    }
}
#endif
