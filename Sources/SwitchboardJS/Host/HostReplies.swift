#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Inside a script host: replies framed and not yet written to the server. Shared with the
/// memory watch thread, which writes out what a long call keeps waiting (see `HostChannel`).
final class HostReplies: Sendable {
    private let held = Mutex<[UInt8]>([])

    func add(_ reply: HostReply) {
        held.withLock { HostFrame.append(reply.encoded, to: &$0) }
    }

    /// Writes what is held, in one `write`; a server that went away ends the host.
    func flush() {
        held.withLock { frames in
            guard !frames.isEmpty else { return }
            do { try HostFrame.write(frames: frames, to: 1) } catch { exit(0) }
            frames.removeAll(keepingCapacity: true)
        }
    }
}
