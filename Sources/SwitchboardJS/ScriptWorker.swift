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
    /// Held by the one sender writing the outbox to the host, and while starting or replacing
    /// the host, so that nothing is written to a pipe that was closed.
    private let writing = Mutex<Void>(())
    private let state = Mutex<State>(State())
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
        /// The request the host was killed for.
        var killedFor: Int64?
        /// The running request as the overdue check first saw it, with the host's CPU time then.
        var watched: (id: Int64, cpu: Int64)?
        var scripts: [Key: Script] = [:]
        var launchError: String?
        /// Requests recorded but not yet written to the host, framed, in the order recorded.
        var outbox: [UInt8] = []
        /// Whether a sender is writing the outbox; the others leave their requests to it.
        var flushing = false

        /// A load's own budget; a call's is its script's, which may have changed since.
        func budget(of request: Pending) -> Int64 {
            request.budget > 0 ? request.budget : scripts[request.key]?.budget ?? 0
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
        guard let (host, headID) = state.withLock({ state in state.host.flatMap { host in state.pending.first.map { (host, $0.id) } } }) else {
            return false
        }
        let cpu = host.cpuTime()
        return state.withLock { state in
            guard state.killedFor == nil, let head = state.pending.first, head.id == headID else { return false }
            guard state.ready else {
                // A host still starting is not charged for it; one that never gets there is.
                guard Int64(Self.uptime - state.headSince) > Self.nanoseconds(Self.startupLimit) else { return false }
                state.killedFor = head.id
                host.kill()
                return true
            }
            guard state.watched?.id == headID, let cpuAtFirstSight = state.watched?.cpu else {
                state.watched = (headID, cpu)
                return false
            }
            let limit = state.budget(of: head) + Self.nanoseconds(overrunGrace)
            let wall = Int64(Self.uptime - state.headSince)
            guard cpu - cpuAtFirstSight > limit || wall > max(10 * limit, 5_000_000_000) else { return false }
            state.killedFor = head.id
            host.kill()
            return true
        }
    }

    /// How long a host may take to start (on a machine too busy to run it, or stuck).
    static let startupLimit: Duration = .seconds(30)

    /// Ends the host for good; waiting requests fail.
    func stop() {
        state.withLock { state in
            state.stopped = true
            state.host?.kill()
        }
    }

    // MARK: talking to the host

    /// Records a request (under the state lock, where `make` may change what is loaded) and
    /// sees that it is written to the host.
    private func send(key: Key, budget: Int64, waiter: Waiter?, _ make: (inout State, Int64) -> HostRequest) {
        // Hosts start with the first load or call, so a server without scripts has none.
        if waiter != nil, state.withLock({ $0.host == nil && !$0.stopped }) {
            writing.withLock { _ in
                if state.withLock({ $0.host == nil && !$0.stopped }) { launch() }
            }
        }
        let flushes = state.withLock { state -> Bool? in
            state.nextID += 1
            let request = make(&state, state.nextID)
            guard state.host != nil else { return nil }
            if let waiter {
                if state.pending.isEmpty { state.headSince = Self.uptime }
                state.pending.append(Pending(request: request, id: state.nextID, key: key, budget: budget, waiter: waiter))
            }
            HostFrame.append(request.encoded, to: &state.outbox)
            defer { state.flushing = true }
            return !state.flushing
        }
        guard let flushes else {
            let why = state.withLock { $0.launchError } ?? "the script host is stopped"
            if let waiter { Self.answer(waiter, file: key.name + ".js", failure: why) }
            return
        }
        if flushes { flush() }
    }

    /// Writes the outbox to the host, and whatever other senders add to it meanwhile in the
    /// same `write`. One sender at a time does this; the others go on at once instead of
    /// waiting their turn at the pipe.
    private func flush() {
        writing.withLock { _ in
            while true {
                let (frames, fd) = state.withLock { state -> ([UInt8], Int32?) in
                    defer { state.outbox = [] }
                    guard !state.outbox.isEmpty, let host = state.host else {
                        state.flushing = false
                        return ([], nil)
                    }
                    return (state.outbox, host.requests)
                }
                guard let fd else { return }
                do throws(HostFrame.Broken) {
                    try HostFrame.write(frames: frames, to: fd)
                } catch {
                    // A host that died cannot take them: its replacement gets what is pending.
                    state.withLock { state in
                        state.outbox = []
                        state.flushing = false
                    }
                    return
                }
            }
        }
    }

    /// Starts a host and the thread that reads its replies. The caller holds `writing`.
    private func launch() {
        do {
            let host = try HostProcess.launch(executable: executable, allowance: allowance)
            state.withLock { state in
                state.host = host
                state.ready = false
            }
            let reader = Thread { [self] in readReplies() }
            reader.name = "switchboard.js.host.\(index)"
            reader.start()
        } catch {
            state.withLock { $0.launchError = error.description }
        }
    }

    private func readReplies() {
        while true {
            guard let host = state.withLock({ $0.host }) else { return }
            var input = HostFrameInput(fd: host.replies)
            while let frame = try? input.next(), let reply = try? HostReply(decoding: frame) {
                if case .asked(let id, let questions) = reply {
                    answer(questions, forCall: id)
                    continue
                }
                if case .ready = reply {
                    state.withLock { state in
                        state.ready = true
                        // The first request's time and CPU count from here.
                        state.headSince = Self.uptime
                        state.watched = nil
                    }
                    continue
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
            guard replace(host) else { return }
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

    /// After `old` went away: answers the request it was lost in, starts a new host with the
    /// same scripts and sends it what was waiting. Returns false once stopped.
    private func replace(_ old: HostProcess) -> Bool {
        writing.withLock { _ in
            // Usually dead already; one that sent a garbled reply is not, and must not be waited on.
            old.kill()
            let exitCode = old.reap()
            var lost: (Loss, Pending)?
            var abandoned: [Pending] = []
            let (host, requests, stopped) = state.withLock { state -> (HostProcess?, [HostRequest], Bool) in
                defer { state.killedFor = nil }
                // What the old host never got is pending, and goes to the new one from there;
                // the rest (budgets, unloads, answers) is what `scripts` holds or is moot.
                state.outbox = []
                if state.stopped {
                    abandoned = state.pending
                    state.pending = []
                    state.host = nil
                    return (nil, [], true)
                }
                // Killed for a request that was answered in the meantime: nobody to blame.
                let killedForAnswered = state.killedFor != nil && state.killedFor != state.pending.first?.id
                if let head = state.pending.first, !killedForAnswered {
                    let loss: Loss = state.killedFor == head.id ? .overran : (exitCode == MemoryWatch.exitCode ? .memory : .crashed)
                    lost = (loss, head)
                    // The same script's other requests would go the same way: answered now.
                    abandoned = state.pending.filter { $0.key == head.key }
                    state.pending.removeAll { $0.key == head.key }
                    abandoned.removeFirst()
                    if loss != .overran || head.waiter.isLoad { state.scripts[head.key] = nil }
                }
                let host = try? HostProcess.launch(executable: executable, allowance: allowance)
                state.host = host
                state.ready = false
                guard host != nil else {
                    abandoned += state.pending
                    state.pending = []
                    return (nil, [], false)
                }
                var reloads: [Pending] = []
                for (key, script) in state.scripts {
                    state.nextID += 1
                    let request = HostRequest.load(
                        id: state.nextID, key: key, file: script.file, source: script.source, budgetNanoseconds: script.budget, envJSON: script.envJSON
                    )
                    reloads.append(Pending(request: request, id: state.nextID, key: key, budget: script.budget, waiter: .reload))
                }
                state.pending = reloads + state.pending
                state.headSince = Self.uptime
                return (host, state.pending.map(\.request), false)
            }
            if let (loss, pending) = lost {
                // Counted before the caller hears: whoever reads the metrics after the call
                // sees the loss.
                onLoss(loss, pending.key)
                Self.answer(pending.waiter, file: pending.key.name + ".js", loss: loss)
            }
            for pending in abandoned {
                if let (loss, _) = lost, !stopped {
                    Self.answer(pending.waiter, file: pending.key.name + ".js", loss: loss)
                } else {
                    Self.answer(pending.waiter, file: pending.key.name + ".js", failure: "the script host stopped")
                }
            }
            guard let host else { return false }
            for request in requests {
                do { try HostFrame.write(request.encoded, to: host.requests) } catch { break }
            }
            return true
        }
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
