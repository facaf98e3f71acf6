#if canImport(Glibc)
import Glibc
#endif

/// Requests framed for one host's pipe and not yet written, kept under the worker's lock.
/// The pipe is non-blocking on the server's side, so whoever holds the lock may write what
/// fits without waiting for the host: a caller when the host is idle, the reply reader once
/// a batch of replies is in. Only what does not fit waits for the writer thread, which alone
/// blocks (see `ScriptWorker`). Every hand-off to another thread is a wake-up, which costs
/// more than the write (measured: the writer thread's semaphore was 6 µs a message).
struct HostOutbox {
    private(set) var bytes: [UInt8] = []
    /// The writer thread took bytes to write outside the lock: until it is done, no one else
    /// writes, or frames would interleave.
    var writerIsWriting = false

    var isEmpty: Bool { bytes.isEmpty }

    mutating func append(_ request: HostRequest) {
        HostFrame.append(request.encoded, to: &bytes)
    }

    /// Everything, for the writer thread; it writes it outside the lock and then calls `writerDone`.
    mutating func takeForWriter() -> [UInt8] {
        writerIsWriting = true
        defer { bytes = [] }
        return bytes
    }

    mutating func writerDone() {
        writerIsWriting = false
    }

    mutating func clear() {
        bytes = []
    }

    /// Writes what the pipe takes now, unless the writer thread is writing. True when
    /// something is left for the writer thread. A host that went away is not written to: its
    /// reader finds the pipe closed, and the replacement gets what is pending.
    mutating func writeWhatFits(to fd: Int32) -> Bool {
        guard !writerIsWriting, !bytes.isEmpty else { return false }
        guard let written = HostFrame.writeWhatFits(bytes, to: fd) else {
            bytes = []
            return false
        }
        bytes.removeFirst(written)
        return !bytes.isEmpty
    }
}
