import Dispatch
import Foundation
import Synchronization

/// One script host process, seen from the server: the scripts it holds and the requests
/// waiting on it. JavaScript never runs in the server's process; it runs there (see
/// `ScriptHost` for why).
///
/// A request that runs past its budget plus the grace gets its host killed: that stops
/// whatever the script started, Promise chains and native work included, and frees its
/// memory. The host is started again with the same scripts and the requests that were
/// waiting behind the stuck one; the stuck one is answered `.timedOut`. A host that exits
/// for its memory or crashes is handled the same way.
final class ScriptWorker: Sendable {
    let index: Int
    private let executable: String
    private let allowance: Int
    private let overrunGrace: Duration
    private let state = Mutex<State>(State())
    /// Wakes the writer thread (see `writeToHost`), which starts hosts, replaces them, and
    /// writes what the host's pipe did not take at once: callers on the cooperative pool
    /// never wait for a host (see `HostOutbox`).
    private let writerWake = DispatchSemaphore(value: 0)
    private let onLoss: @Sendable (Loss, Key) -> Void
    /// Answers running calls' questions.
    private let questions: ScriptQuestions

    private struct Script {
        var source: ScriptContext.Source
        var file: String
        var budget: Int64
        var envJSON: String
    }

    private enum Waiter {
        case load(CheckedContinuation<Result<LoadReport, ScriptError>, Never>)
        case call(CheckedContinuation<Call, Never>)
        /// A script loaded again into a new host; nobody waits.
        case reload

        var isLoad: Bool {
            if case .call = self { return false }
            return true
        }
    }

    private struct Pending {
        var request: HostRequest
        var id: Int64
        var key: Key
        var budget: Int64
        var waiter: Waiter
    }

    private struct State {
        var host: HostProcess?
        /// Whether the host has said it is ready: until then it is starting, and neither
        /// its time nor its CPU is the first request's.
        var ready = false
        var stopped = false
        var nextID: Int64 = 0
        /// Requests the host has not answered, in the order sent; the first is running.
        var pending: [Pending] = []
        /// When the first pending request started, in uptime nanoseconds.
        var headSince: UInt64 = 0
        /// Whether the first pending request is a call left in the outbox for a job to write
        /// (see `send`): its time starts when it is written, not while the job waits its turn.
        var headAwaitsWrite = false
        /// The request the host was killed for.
        var killedFor: Int64?
        /// The running request as the overdue check first saw it, with the host's CPU time then.
        var watched: (id: Int64, cpu: Int64)?
        var scripts: [Key: Script] = [:]
        /// Requests recorded but not yet written to the host, in the order recorded.
        var outbox = HostOutbox()
        /// Whether a host should be started (a load or call came while there was none).
        var wantsHost = false
        /// A host whose replies ended (it exited, was killed, or garbled a reply), for the
        /// writer thread to reap and replace.
        var lostHost: HostProcess?
        var writerStarted = false
        /// Whether the writer thread has been woken and not yet found nothing to do: senders
        /// wake it only when it is not.
        var writerAwake = false

        /// What waits in the outbox, for one writer (see `HostOutbox.take`).
        mutating func takeOutbox() -> [UInt8]? {
            guard let frames = outbox.take() else { return nil }
            if headAwaitsWrite {
                headAwaitsWrite = false
                headSince = ScriptWorker.uptime
            }
            return frames
        }

        /// Marks the writer woken; true when the caller must signal it.
        mutating func wakeWriter() -> Bool {
            defer { writerAwake = true }
            return !writerAwake
        }

        /// A load's own budget; a call's is its script's, which may have changed since.
        func budget(of request: Pending) -> Int64 {
            request.budget > 0 ? request.budget : scripts[request.key]?.budget ?? 0
        }

        /// The request a host is running, or was when it went away. The host holds back the
        /// replies of calls that asked the server nothing while more work waits for it (see
        /// `HostChannel`), so it is not always the first pending: it is the call the host
        /// started last, or the first request after it (a load). Those before it ran to the
        /// end, and their replies are on the way, or went with the host: having asked
        /// nothing, they run again on the next host and change nothing outside the VM that
        /// went away.
        func running(lastStarted: Int64) -> Pending? {
            pending.first { $0.id >= lastStarted } ?? pending.first
        }

        /// Whether the running request has run past its budget (it may be about to be
        /// killed): whatever waits behind it would wait for that.
        var headIsPastBudget: Bool {
            pending.first.map { Int64(ScriptWorker.uptime - headSince) > budget(of: $0) } ?? false
        }
    }

    /// - Parameters:
    ///   - allowance: bytes the host may grow past what its scripts took to load.
    ///   - onLoss: hears which script's request a host was lost in, and why.
    init(
        index: Int, executable: String, allowance: Int, overrunGrace: Duration,
        onLoss: @escaping @Sendable (Loss, Key) -> Void, questions: ScriptQuestions
    ) {
        self.index = index
        self.executable = executable
        self.allowance = allowance
        self.overrunGrace = overrunGrace
        self.onLoss = onLoss
        self.questions = questions
        signal(SIGPIPE, SIG_IGN)
    }

    /// Requests waiting or running here, for the pool to send work to the least busy worker;
    /// nil while the host is being replaced, or while its running request is past its budget
    /// (it may be about to be killed): the pool sends work elsewhere meanwhile.
    var loadUnlessStalled: Int? {
        state.withLock { state in
            guard state.killedFor == nil, state.host != nil, state.ready, !state.headIsPastBudget else { return nil }
            return state.pending.count
        }
    }

    /// Loads a script version into this worker's host.
    func load(_ key: Key, source: ScriptContext.Source, file: String, budget: Duration, envJSON: String) async throws(ScriptError) -> LoadReport {
        let nanoseconds = Self.nanoseconds(budget)
        let result = await withCheckedContinuation { continuation in
            send(key: key, budget: nanoseconds, waiter: .load(continuation)) { state, id in
                state.scripts[key] = Script(source: source, file: file, budget: nanoseconds, envJSON: envJSON)
                return .load(id: id, key: key, file: file, source: source, budgetNanoseconds: nanoseconds, envJSON: envJSON)
            }
        }
        return try result.get()
    }

    func setBudget(_ key: Key, _ budget: Duration) {
        let nanoseconds = Self.nanoseconds(budget)
        send(key: key, budget: nanoseconds, waiter: nil) { state, _ in
            state.scripts[key]?.budget = nanoseconds
            return .setBudget(key: key, budgetNanoseconds: nanoseconds)
        }
    }

    /// Drops a script version, after every request sent before this one.
    func unload(_ key: Key) {
        send(key: key, budget: 0, waiter: nil) { state, _ in
            state.scripts[key] = nil
            return .unload(key: key)
        }
    }

    func invoke(_ key: Key, hook: String, paramsJSON: String) async -> Call {
        await withCheckedContinuation { continuation in
            run(WaitingCall(key: key, hook: hook, paramsJSON: paramsJSON, continuation: continuation))
        }
    }

    /// A call sent to a host and not started there, with its caller waiting.
    struct WaitingCall: Sendable {
        var key: Key
        var hook: String
        var paramsJSON: String
        var continuation: CheckedContinuation<Call, Never>
    }

    /// Sends `call` to this worker's host; its caller hears from here.
    func run(_ call: WaitingCall) {
        send(key: call.key, budget: 0, waiter: .call(call.continuation)) { _, id in
            .invoke(id: id, key: call.key, hook: call.hook, paramsJSON: call.paramsJSON)
        }
    }

    /// Takes back the calls waiting behind a request that has run past its budget, for
    /// another host: they would otherwise wait for it to end, or for this host to be killed
    /// and started again with every script. Calls the host has started stay; the host skips
    /// those taken back (see `HostGate`), so none runs twice.
    func takeBackCallsBehindAnOverrun() -> [WaitingCall] {
        state.withLock { state in
            guard state.ready, state.killedFor == nil, let host = state.host, state.headIsPastBudget,
                  state.pending.dropFirst().contains(where: { !$0.waiter.isLoad })
            else { return [] }
            let lastStarted = host.gate.takeBack(through: state.nextID)
            var taken: [WaitingCall] = []
            state.pending.removeAll { pending in
                guard pending.id > lastStarted, case .call(let continuation) = pending.waiter,
                      case .invoke(_, let key, let hook, let paramsJSON) = pending.request
                else { return false }
                taken.append(WaitingCall(key: key, hook: hook, paramsJSON: paramsJSON, continuation: continuation))
                return true
            }
            return taken
        }
    }

    /// Kills the host if its running request has used more CPU than its budget plus the
    /// grace, or has taken ten times that in wall time (at least 5 s: a script blocked without
    /// using CPU). CPU time, not wall time: on a busy machine a call may wait for a core. The
    /// CPU is counted from when this check first sees the request, so a call gets up to one
    /// check interval more. Returns whether it killed.
    func killIfOverdue() -> Bool {
        let running = state.withLock { state in
            state.host.flatMap { host in state.running(lastStarted: host.gate.lastStarted).map { (host, $0.id) } }
        }
        guard let (host, runningID) = running else { return false }
        let cpu = host.cpuTime()
        return state.withLock { state in
            guard state.killedFor == nil, let running = state.running(lastStarted: host.gate.lastStarted), running.id == runningID else {
                return false
            }
            guard state.ready else {
                // A host still starting is not charged for it; one that never gets there is.
                guard Int64(Self.uptime - state.headSince) > Self.nanoseconds(Self.startupLimit) else { return false }
                state.killedFor = running.id
                host.kill()
                return true
            }
            guard state.watched?.id == runningID, let cpuAtFirstSight = state.watched?.cpu else {
                state.watched = (runningID, cpu)
                return false
            }
            let limit = state.budget(of: running) + Self.nanoseconds(overrunGrace)
            let wall = Int64(Self.uptime - state.headSince)
            guard cpu - cpuAtFirstSight > limit || wall > max(10 * limit, 5_000_000_000) else { return false }
            state.killedFor = running.id
            host.kill()
            return true
        }
    }

    /// How long a host may take to start (on a machine too busy to run it, or stuck).
    static let startupLimit: Duration = .seconds(30)

    /// Ends the host for good; waiting requests fail.
    func stop() {
        let wakes = state.withLock { state in
            state.stopped = true
            state.host?.kill()
            return state.writerStarted && state.wakeWriter()
        }
        if wakes { writerWake.signal() }
    }

    // MARK: talking to the host

    /// Records a request (under the state lock, where `make` may change what is loaded) and
    /// sends it: to a host that waits for work, a call by a job queued behind the work
    /// already waiting, anything else at once; with the next batch to one busy with earlier
    /// requests (its reply reader writes them, see `readReplies`); through the writer thread
    /// when there is no host yet or its pipe is full.
    private func send(key: Key, budget: Int64, waiter: Waiter?, _ make: (inout State, Int64) -> HostRequest) {
        let (accepted, startsWriter, wakes, writing) = state.withLock { state -> (Bool, Bool, Bool, (HostProcess, [UInt8]?)?) in
            state.nextID += 1
            let request = make(&state, state.nextID)
            guard !state.stopped else { return (false, false, false, nil) }
            // Hosts start with the first load or call, so a server without scripts has none.
            if state.host == nil, waiter != nil { state.wantsHost = true }
            guard state.host != nil || state.wantsHost else { return (false, false, false, nil) }
            // A host with nothing to answer reads its pipe; one busy with a request reads it
            // after answering, which brings the reader here; a call waiting for answers waits.
            let hostWaits = state.pending.isEmpty || request.isAnswer
            if let waiter {
                if state.pending.isEmpty { state.headSince = Self.uptime }
                state.pending.append(Pending(request: request, id: state.nextID, key: key, budget: budget, waiter: waiter))
            }
            state.outbox.append(request)
            defer { state.writerStarted = true }
            if let host = state.host {
                guard hostWaits else { return (true, false, false, nil) }
                if case .call = waiter {
                    state.headAwaitsWrite = true
                    return (true, false, false, (host, nil))
                }
                return (true, false, false, state.takeOutbox().map { (host, $0) })
            }
            return (true, !state.writerStarted, state.wakeWriter(), nil)
        }
        switch writing {
        case (let host, let frames?)?: write(frames, to: host)
        case (let host, nil)?:
            // A call to an idle host is written by a job queued behind the work already
            // waiting, with the calls that work makes meanwhile: the host wakes once for
            // all of them, and so does this worker's reader for their replies.
            Task { writeWaitingRequests(to: host) }
        case nil: break
        }
        guard accepted else {
            if let waiter { Self.answer(waiter, file: key.name + ".js", failure: "the script host is stopped") }
            return
        }
        if startsWriter {
            let writer = Thread { [self] in writeToHost() }
            writer.name = "switchboard.js.writer.\(index)"
            writer.start()
        }
        if wakes { writerWake.signal() }
    }

    /// What the writer thread does next.
    private enum WriterWork {
        case replace(HostProcess)
        case launch
        case write([UInt8], to: Int32)
        /// Stopped with no host: what still waits is answered, and the thread ends.
        case exit(abandoned: [Pending])
    }

    /// The writer thread: starts hosts, writes what the pipe did not take at once (waiting for
    /// room), and replaces hosts that went away. A host that stops reading blocks this thread
    /// alone until it is killed. Others write under the state lock, where the host is the
    /// current one: `nextWriterWork` lets the host go before its pipes are closed.
    private func writeToHost() {
        while true {
            writerWake.wait()
            while let work = nextWriterWork() {
                switch work {
                case .replace(let old):
                    replace(old)
                case .launch:
                    launch()
                case .write(let frames, let fd):
                    // A host that died cannot take them: its reader reports it, and the
                    // replacement gets what is pending.
                    try? HostFrame.write(frames: frames, to: fd)
                    state.withLock { $0.outbox.written(leaving: []) }
                case .exit(let abandoned):
                    for pending in abandoned { Self.answer(pending.waiter, file: pending.key.name + ".js", failure: "the script host stopped") }
                    return
                }
            }
        }
    }

    private func nextWriterWork() -> WriterWork? {
        state.withLock { state in
            // Not while someone writes to its pipe outside the lock: they wake this thread
            // when done. Then the host goes before its pipes close: no one writes to their
            // numbers, reused or not.
            if let lost = state.lostHost, !state.outbox.isBeingWritten {
                state.lostHost = nil
                state.host = nil
                return .replace(lost)
            }
            if state.stopped, state.host == nil {
                defer { state.pending = [] }
                return .exit(abandoned: state.pending)
            }
            if state.host == nil, state.wantsHost, !state.stopped {
                state.wantsHost = false
                return .launch
            }
            if let host = state.host, state.lostHost == nil, let frames = state.takeOutbox() {
                return .write(frames, to: host.requests)
            }
            state.writerAwake = false
            return nil
        }
    }

    /// Starts a host and the thread that reads its replies; if it cannot start, what waits
    /// for it fails with why.
    private func launch() {
        do {
            let host = try HostProcess.launch(executable: executable, allowance: allowance)
            state.withLock { state in
                state.host = host
                state.ready = false
                state.headSince = Self.uptime
                // Stopped while it started: its reader hears it end, and the host goes the
                // way a stopped worker's host goes.
                if state.stopped { host.kill() }
            }
            readReplies(from: host)
        } catch {
            let waiting = state.withLock { state in
                defer {
                    state.pending = []
                    state.outbox.clear()
                }
                return state.pending
            }
            for pending in waiting { Self.answer(pending.waiter, file: pending.key.name + ".js", failure: error.description) }
        }
    }

    /// Reads `host`'s replies on a thread of its own until they end, then hands the host to
    /// the writer thread to replace. After each batch of replies (all that one read brought)
    /// it writes the requests that came meanwhile: the host reads them as it finishes, and
    /// a batch costs it one wake-up.
    private func readReplies(from host: HostProcess) {
        let reader = Thread { [self] in
            var input = HostFrameInput(fd: host.replies)
            while let frame = try? input.next(), let reply = try? HostReply(decoding: frame) {
                receive(reply)
                if !input.hasWholeFrame { writeWaitingRequests(to: host) }
            }
            let wakes = state.withLock { state in
                state.lostHost = host
                return state.wakeWriter()
            }
            if wakes { writerWake.signal() }
        }
        reader.name = "switchboard.js.host.\(index)"
        reader.start()
    }

    private func writeWaitingRequests(to host: HostProcess) {
        let frames = state.withLock { state in state.host?.pid == host.pid ? state.takeOutbox() : nil }
        if let frames { write(frames, to: host) }
    }

    /// Writes `frames`, taken from the outbox, and what comes meanwhile, as far as the pipe
    /// takes them without waiting; the rest goes to the writer thread, as does a host that
    /// went away meanwhile (see `HostOutbox`).
    private func write(_ frames: [UInt8], to host: HostProcess) {
        var frames = frames
        while true {
            // A host that went away takes nothing: its reader reports it, and the
            // replacement gets what is pending.
            let written = HostFrame.writeWhatFits(frames[...], to: host.requests) ?? frames.count
            let (more, wakes) = state.withLock { state -> ([UInt8]?, Bool) in
                state.outbox.written(leaving: frames[written...])
                guard written == frames.count, state.lostHost == nil, state.host?.pid == host.pid else {
                    return (nil, state.wakeWriter())
                }
                return (state.takeOutbox(), false)
            }
            if wakes { writerWake.signal() }
            guard let more else { return }
            frames = more
        }
    }

    private func receive(_ reply: HostReply) {
        if case .asked(let id, let questions) = reply {
            answer(questions, forCall: id)
            return
        }
        if case .ready = reply {
            state.withLock { state in
                state.ready = true
                // The first request's time and CPU count from here.
                state.headSince = Self.uptime
                state.watched = nil
            }
            return
        }
        let waiter = state.withLock { state -> Waiter? in
            guard let index = state.pending.firstIndex(where: { $0.id == reply.id }) else { return nil }
            state.headSince = Self.uptime
            return state.pending.remove(at: index).waiter
        }
        switch (waiter, reply) {
        case (.load(let continuation), .loaded(_, let result)): continuation.resume(returning: result)
        case (.call(let continuation), .called(_, let call)): continuation.resume(returning: call)
        default: break
        }
    }

    /// Answers a running call's questions off this thread, which must go on reading.
    private func answer(_ questions: String, forCall id: Int64) {
        // Waiting costs the call no CPU; its budget in wall time bounds what it waits for.
        let remaining = state.withLock { state -> Int64 in
            guard let head = state.pending.first, head.id == id else { return 0 }
            return state.budget(of: head) - Int64(Self.uptime - state.headSince)
        }
        Task {
            let answers = await self.questions.answer(questions, remaining: .nanoseconds(remaining))
            send(key: Key(name: "", version: ""), budget: 0, waiter: nil) { _, _ in .answer(id: id, json: answers) }
        }
    }

    /// After `old` went away (on the writer thread): answers the request it was lost in,
    /// starts a new host with the same scripts and queues what was waiting for it.
    private func replace(_ old: HostProcess) {
        // Usually dead already; one that sent a garbled reply is not, and must not be waited on.
        old.kill()
        let exitCode = old.reap()
        var lost: (Loss, Pending)?
        var abandoned: [Pending] = []
        let stopped = state.withLock { state -> Bool in
            defer { state.killedFor = nil }
            state.host = nil
            // What the old host never got is pending, and goes to the new one from there;
            // the rest (budgets, unloads, answers) is what `scripts` holds or is moot.
            state.outbox.clear()
            if state.stopped {
                abandoned = state.pending
                state.pending = []
                return true
            }
            let running = state.running(lastStarted: old.gate.lastStarted)
            // Killed for a request that was answered in the meantime: nobody to blame.
            let killedForAnswered = state.killedFor != nil && state.killedFor != running?.id
            if let running, !killedForAnswered {
                let loss: Loss = state.killedFor == running.id ? .overran : (exitCode == MemoryWatch.exitCode ? .memory : .crashed)
                lost = (loss, running)
                // The same script's other requests behind it would go the same way: answered now.
                abandoned = state.pending.filter { $0.key == running.key && $0.id > running.id }
                state.pending.removeAll { $0.key == running.key && $0.id >= running.id }
                if loss != .overran || running.waiter.isLoad { state.scripts[running.key] = nil }
            }
            return false
        }
        if let (loss, pending) = lost {
            // Counted before the caller hears: whoever reads the metrics after the call
            // sees the loss.
            onLoss(loss, pending.key)
            Self.answer(pending.waiter, file: pending.key.name + ".js", loss: loss)
        }
        let host = stopped ? nil : try? HostProcess.launch(executable: executable, allowance: allowance)
        state.withLock { state in
            state.wantsHost = false
            state.outbox.clear()
            guard let host else {
                abandoned += state.pending
                state.pending = []
                return
            }
            state.host = host
            state.ready = false
            var reloads: [Pending] = []
            for (key, script) in state.scripts {
                state.nextID += 1
                let request = HostRequest.load(
                    id: state.nextID, key: key, file: script.file, source: script.source, budgetNanoseconds: script.budget, envJSON: script.envJSON
                )
                reloads.append(Pending(request: request, id: state.nextID, key: key, budget: script.budget, waiter: .reload))
            }
            // Requests sent while there was no host are pending too, and go in order after
            // the reloads; whatever else was sent meanwhile is in `scripts` or moot.
            state.pending = reloads + state.pending
            state.headSince = Self.uptime
            for pending in state.pending { state.outbox.append(pending.request) }
        }
        for pending in abandoned {
            if let (loss, _) = lost, !stopped {
                Self.answer(pending.waiter, file: pending.key.name + ".js", loss: loss)
            } else {
                Self.answer(pending.waiter, file: pending.key.name + ".js", failure: "the script host stopped")
            }
        }
        if let host { readReplies(from: host) }
    }

    private static func answer(_ waiter: Waiter, file: String, loss: Loss) {
        switch (waiter, loss) {
        case (.call(let continuation), .overran): continuation.resume(returning: Call(outcome: .timedOut, logs: [], heapBytes: nil))
        case (.call(let continuation), .memory): continuation.resume(returning: Call(outcome: .exceededMemory, logs: [], heapBytes: nil))
        case (.call, .crashed): answer(waiter, file: file, failure: "the script host crashed during the call")
        case (.load(let continuation), _):
            let why = switch loss {
            case .overran: "ran past its budget while loading"
            case .memory: "grew past the memory limit while loading"
            case .crashed: "crashed the script host while loading"
            }
            continuation.resume(returning: .failure(ScriptError(file: file, line: nil, message: why)))
        case (.reload, _): break
        }
    }

    private static func answer(_ waiter: Waiter, file: String, failure: String) {
        switch waiter {
        case .call(let continuation): continuation.resume(returning: Call(outcome: .failed(failure), logs: [], heapBytes: nil))
        case .load(let continuation): continuation.resume(returning: .failure(ScriptError(file: file, line: nil, message: failure)))
        case .reload: break
        }
    }

    private static var uptime: UInt64 { DispatchTime.now().uptimeNanoseconds }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }
}
