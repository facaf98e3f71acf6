import Synchronization

/// The messages one connection is sending: their `_messageReceived` hooks run side by side,
/// they take their places in the store in the order they came, commit together, and are
/// acknowledged and delivered in that order.
///
/// A connection's commands are handled one at a time (see the gateway's frame queue), and a
/// send used to wait for its hooks and then for its commit before the next began: with a
/// script, every message of a connection waited for a round trip to a script host, and
/// under the standard load (50 senders, 10 messages in flight each) those waits, not CPU,
/// bounded throughput. Here a send waits for those before it only to take its place in the
/// store (`SendTurn.waitForEarlierPlaces`) and to be acknowledged
/// (`waitForEarlierSends`); any other command of the connection waits until its sends are
/// done (`drain`). Sends are stamped as they are admitted, so that their times keep the
/// order they are stored in.
final class SendSequence: Sendable {
    /// Sends one connection may have in flight: as many as its frame queue keeps unread.
    static let limit = 16

    private struct State {
        /// The latest admitted send's gates.
        var last: (placed: Gate, done: Gate)?
        var inFlight = 0
        var waitingForRoom: [UnsafeContinuation<Void, Never>] = []
        var waitingForDrain: [UnsafeContinuation<Void, Never>] = []
    }

    // Each continuation is taken out of `state` under its lock before it is resumed, so it is
    // resumed exactly once.
    private let state = Mutex(State())

    /// Admits the next send, waiting while `limit` are in flight, and stamps it with `stamp`
    /// (the server clock's next time): sends are admitted and stamped in the order this is
    /// called (by the connection's one command handler), which is the order they are stored.
    func admit(stamp: () -> Int64) async -> SendTurn {
        let admitted = state.withLock { state in
            guard state.inFlight < Self.limit else { return false }
            state.inFlight += 1
            return true
        }
        if !admitted {
            // Resumed by a send that finishes, which hands its room over.
            await withUnsafeContinuation { continuation in
                let roomMeanwhile = state.withLock { state in
                    guard state.inFlight < Self.limit else {
                        state.waitingForRoom.append(continuation)
                        return false
                    }
                    state.inFlight += 1
                    return true
                }
                if roomMeanwhile { continuation.resume() }
            }
        }
        return state.withLock { state in
            let turn = SendTurn(after: state.last, timestamp: stamp(), sequence: self)
            state.last = (turn.placed, turn.done)
            return turn
        }
    }

    /// Waits until no send is in flight.
    func drain() async {
        guard state.withLock({ $0.inFlight > 0 }) else { return }
        await withUnsafeContinuation { continuation in
            let drained = state.withLock { state in
                guard state.inFlight > 0 else { return true }
                state.waitingForDrain.append(continuation)
                return false
            }
            if drained { continuation.resume() }
        }
    }

    fileprivate func finished() {
        let resumed = state.withLock { state -> [UnsafeContinuation<Void, Never>] in
            if !state.waitingForRoom.isEmpty {
                // The room this send leaves goes to the one waiting for it.
                return [state.waitingForRoom.removeFirst()]
            }
            state.inFlight -= 1
            guard state.inFlight == 0 else { return [] }
            state.last = nil
            defer { state.waitingForDrain = [] }
            return state.waitingForDrain
        }
        for continuation in resumed { continuation.resume() }
    }
}

/// One admitted send's place in its connection's `SendSequence`.
final class SendTurn: Sendable {
    /// The send being handled, in the task that handles it.
    @TaskLocal static var current: SendTurn?

    /// The message's time: stamped at admission, not as its task gets to it, so that a
    /// connection's messages keep in history the order they are delivered in.
    let timestamp: Int64
    private let earlier: (placed: Gate, done: Gate)?
    /// Open once this send's write has its place in the store's order, or it will not write.
    fileprivate let placed = Gate()
    /// Open once this send has been acknowledged and delivered, or refused.
    fileprivate let done = Gate()
    private let sequence: SendSequence

    fileprivate init(after earlier: (placed: Gate, done: Gate)?, timestamp: Int64, sequence: SendSequence) {
        self.earlier = earlier
        self.timestamp = timestamp
        self.sequence = sequence
    }

    /// Waits until the sends admitted before this one have their places in the store.
    func waitForEarlierPlaces() async {
        await earlier?.placed.wait()
    }

    /// This send's write has its place: the next may write.
    func hasPlace() {
        placed.open()
    }

    /// Waits until the sends admitted before this one are acknowledged and delivered.
    func waitForEarlierSends() async {
        await earlier?.done.wait()
    }

    /// This send is acknowledged and delivered: the next may be.
    func isDelivered() {
        done.open()
    }

    /// This send is over, however it went.
    func finish() {
        placed.open()
        done.open()
        sequence.finished()
    }
}

/// Opens once; whoever waits goes on then.
private final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiting: [UnsafeContinuation<Void, Never>])>((false, []))

    func wait() async {
        guard !state.withLock({ $0.open }) else { return }
        await withUnsafeContinuation { continuation in
            let open = state.withLock { state in
                guard !state.open else { return true }
                state.waiting.append(continuation)
                return false
            }
            if open { continuation.resume() }
        }
    }

    /// Opens the gate; opening it again does nothing.
    func open() {
        let waiting = state.withLock { state in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}
