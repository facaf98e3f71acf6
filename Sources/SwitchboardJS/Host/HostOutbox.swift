/// Requests framed for one host's pipe and not yet written, kept under the worker's lock.
/// The pipe is non-blocking on the server's side, so a job writing to an idle host, or the
/// reply reader writing what came while the host was busy, writes itself what fits, without
/// waiting for the host; only what does not fit waits for the writer thread, which alone
/// blocks (see `ScriptWorker`). Every hand-off to another thread is a wake-up, which costs
/// more than the write (measured: the writer thread's semaphore was 6 µs a message).
///
/// Whoever writes takes the bytes and writes outside the lock: a `write` that wakes the
/// host takes microseconds, and callers spinning on the lock meanwhile cost more than the
/// hop did (measured). Until it is done, no one else writes, or frames would interleave,
/// and the host's pipes stay open (see `ScriptWorker.nextWriterWork`).
struct HostOutbox {
    private var bytes: [UInt8] = []
    private(set) var isBeingWritten = false

    mutating func append(_ request: HostRequest) {
        HostFrame.append(request.encoded, to: &bytes)
    }

    /// Everything waiting, for one writer; nil if someone is writing or nothing waits.
    mutating func take() -> [UInt8]? {
        guard !isBeingWritten, !bytes.isEmpty else { return nil }
        isBeingWritten = true
        defer { bytes = [] }
        return bytes
    }

    /// After a write: what the pipe did not take goes back in front of what came meanwhile.
    mutating func written(leaving rest: ArraySlice<UInt8>) {
        if !rest.isEmpty { bytes = Array(rest) + bytes }
        isBeingWritten = false
    }

    /// What waits, for a host that went away: the next one gets what is pending.
    mutating func clear() {
        bytes = []
    }
}
