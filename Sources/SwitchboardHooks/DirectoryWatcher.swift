import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc

/// Reports files written, moved in, moved out or deleted in one folder, through inotify.
/// Files are reported once closed after writing, so a half-written file is never read.
public enum DirectoryWatcher {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// File names as they change; ending the stream's iteration stops watching.
    public static func changes(in directory: String) throws(Failure) -> AsyncStream<String> {
        let descriptor = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        guard descriptor >= 0 else { throw Failure(description: "inotify_init1: \(String(cString: strerror(errno)))") }
        let mask = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM) | UInt32(IN_DELETE)
        guard inotify_add_watch(descriptor, directory, mask) >= 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Failure(description: "cannot watch \(directory): \(reason)")
        }
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        let stopped = Stopped()
        continuation.onTermination = { _ in stopped.flag.store(true, ordering: .relaxed) }
        let thread = Thread {
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
                for name in names(in: buffer[..<count]) {
                    continuation.yield(name)
                }
            }
        }
        thread.name = "switchboard.watcher"
        thread.start()
        return stream
    }

    /// Reads the `struct inotify_event` records: wd, mask, cookie, len, then `len` bytes of
    /// NUL-padded name.
    private static func names(in bytes: ArraySlice<UInt8>) -> [String] {
        var names: [String] = []
        var offset = bytes.startIndex
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= bytes.endIndex {
            let length = bytes[(offset + 12)..<(offset + 16)].withUnsafeBytes { Int($0.loadUnaligned(as: UInt32.self)) }
            let nameStart = offset + header
            let nameEnd = min(nameStart + length, bytes.endIndex)
            let name = bytes[nameStart..<nameEnd].prefix { $0 != 0 }
            if !name.isEmpty { names.append(String(decoding: name, as: UTF8.self)) }
            offset = nameStart + length
        }
        return names
    }

    private final class Stopped: Sendable {
        let flag = Atomic<Bool>(false)
    }
}
#endif
