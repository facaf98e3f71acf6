#if canImport(Glibc)
import Glibc
#endif

/// The host's end of the pipes: requests in order, keeping those that arrive while a call
/// waits for the server's answers until that call is done.
///
/// Replies go out in batches: everything the host answered while more requests were already
/// read in, in one `write` once it has nothing left to do, so that the server's reader wakes
/// once a batch, not once a call (a wake-up on each side costs more than a trivial call's
/// JavaScript). Only replies that may be lost are held: those of calls that asked the server
/// nothing, and only when the server can tell which call a host died in (the gate's last
/// started call; see `ScriptWorker.State.running`). Everything else goes at once.
struct HostChannel {
    private var input = HostFrameInput(fd: 0)
    private var deferred: [HostRequest] = []
    let replies = HostReplies()
    /// Whether replies may wait for the rest of their batch.
    let holdsReplies: Bool

    init(holdsReplies: Bool) {
        self.holdsReplies = holdsReplies
    }

    /// The next request; nil once the server has closed the pipe. With nothing left to do,
    /// it first writes what is held.
    mutating func next() -> HostRequest? {
        if !deferred.isEmpty { return deferred.removeFirst() }
        if !input.hasWholeFrame { replies.flush() }
        return read()
    }

    /// The answers to call `id`'s questions; nil once the server has closed the pipe.
    mutating func answers(for id: Int64) -> String? {
        while let request = read() {
            if case .answer(let answered, let json) = request {
                if answered == id { return json }
                continue  // for a call that is over
            }
            deferred.append(request)
        }
        return nil
    }

    /// Written at once, with what is held before it.
    func write(_ reply: HostReply) {
        replies.add(reply)
        replies.flush()
    }

    /// The reply to a call that asked the server nothing: with the batch when the host may
    /// hold it back, at once otherwise.
    func writeWithBatch(_ reply: HostReply) {
        if holdsReplies { replies.add(reply) } else { write(reply) }
    }

    /// Writes what is held: before work that is not a call (a load), which must not be
    /// blamed on the calls held, nor held with them.
    func flush() {
        replies.flush()
    }

    private mutating func read() -> HostRequest? {
        do {
            guard let frame = try input.next() else { return nil }
            return try HostRequest(decoding: frame)
        } catch {
            exit(2)
        }
    }
}
