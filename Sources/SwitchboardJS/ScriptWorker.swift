import Dispatch
import Synchronization

/// One JavaScript thread: a serial queue and the script VMs it owns. JavaScript never runs
/// on the network event loops or Swift's cooperative pool; it runs here.
final class ScriptWorker: Sendable {
    /// Identifies one version of one script.
    struct Key: Hashable, Sendable {
        var name: String
        var version: String
    }

    /// The result of a call, with what the script logged and how big its heap is now.
    struct Call: Sendable {
        var outcome: Outcome
        var logs: [(level: String, text: String)]
        /// Measured on some calls only; nil when not measured.
        var heapBytes: Int?
    }

    /// Time between two heap measurements of a script VM: the statistics walk the whole heap,
    /// which costs more than a small call.
    static let heapCheckInterval: UInt64 = 50_000_000
    /// A call this long is measured at once: allocating a lot takes time, so a script cannot
    /// pile up many large allocations between two measurements.
    static let slowCallThreshold: UInt64 = 2_000_000

    enum Outcome: Sendable, Equatable {
        case value(String)
        case failed(String)
        case timedOut
        case notLoaded
    }

    let index: Int
    private let queue: DispatchQueue
    /// Touched only on `queue`; the lock is never contended and only satisfies the compiler
    /// that the contexts (not Sendable themselves) stay on this worker.
    private let contexts = Mutex<[Key: ScriptContext]>([:])
    private let inFlight = Atomic<Int>(0)
    /// How long past its budget a call may run before its caller stops waiting for it.
    private let overrunGrace: Duration
    /// Callers waiting for their calls, by call number; whoever removes a caller answers it.
    private let waiting = Mutex<(next: UInt64, callers: [UInt64: CheckedContinuation<Call, Never>])>((0, [:]))
    /// When the running call counts as stuck, in uptime nanoseconds; 0 while idle.
    private let overdueAt = Atomic<UInt64>(0)
    private let stalled = Atomic<Bool>(false)

    init(index: Int, overrunGrace: Duration) {
        self.index = index
        self.overrunGrace = overrunGrace
        queue = DispatchQueue(label: "switchboard.js.worker.\(index)")
    }

    /// Calls waiting or running here: the pool sends work to the least busy worker.
    var load: Int { inFlight.load(ordering: .relaxed) }

    /// Whether a call overran so far that its callers were let go; the pool sends work
    /// elsewhere until that call returns.
    var isStalled: Bool { stalled.load(ordering: .relaxed) }

    /// Loads a script version into a fresh VM on this worker.
    func load(_ key: Key, source: String, file: String, budget: Duration) async throws(ScriptError) -> LoadReport {
        let result: Result<LoadReport, ScriptError> = await run {
            self.contexts.withLock { contexts in
                do throws(ScriptError) {
                    let context = try ScriptContext(source: source, file: file, budget: budget)
                    contexts[key] = context
                    return .success(LoadReport(hooks: context.hooks, optionsJSON: context.optionsJSON, logs: context.drainLogs()))
                } catch {
                    return .failure(error)
                }
            }
        }
        return try result.get()
    }

    /// What a script declared when it loaded.
    struct LoadReport: Sendable {
        var hooks: [String]
        var optionsJSON: String
        var logs: [(level: String, text: String)]
    }

    func setBudget(_ key: Key, _ budget: Duration) async {
        await run { self.contexts.withLock { _ = $0[key]?.setBudget(budget) } }
    }

    /// Runs a hook call. Answers `.timedOut` without waiting any longer if the worker is
    /// stuck in an earlier call (see `abandonIfOverdue`).
    func invoke(_ key: Key, hook: String, paramsJSON: String) async -> Call {
        inFlight.add(1, ordering: .relaxed)
        defer { inFlight.subtract(1, ordering: .relaxed) }
        return await withCheckedContinuation { continuation in
            let number = waiting.withLock { waiting in
                waiting.next += 1
                waiting.callers[waiting.next] = continuation
                return waiting.next
            }
            queue.async {
                // A caller let go while its call was queued no longer wants it run.
                guard self.waiting.withLock({ $0.callers[number] != nil }) else { return }
                let call = self.call(key, hook: hook, paramsJSON: paramsJSON)
                self.waiting.withLock { $0.callers.removeValue(forKey: number) }?.resume(returning: call)
            }
        }
    }

    private func call(_ key: Key, hook: String, paramsJSON: String) -> Call {
        contexts.withLock { contexts in
            guard let context = contexts[key] else { return Call(outcome: .notLoaded, logs: [], heapBytes: nil) }
            overdueAt.store(Self.uptime + Self.nanoseconds(context.budget + overrunGrace), ordering: .relaxed)
            defer {
                overdueAt.store(0, ordering: .sequentiallyConsistent)
                stalled.store(false, ordering: .sequentiallyConsistent)
            }
            let started = Self.uptime
            let outcome: Outcome = switch context.invoke(hook: hook, paramsJSON: paramsJSON) {
            case .value(let json): .value(json)
            case .failed(let message): .failed(message)
            case .timedOut: .timedOut
            }
            let finished = Self.uptime
            let slow = finished - started > Self.slowCallThreshold
            let measured = slow || finished - context.lastHeapCheck > Self.heapCheckInterval
            if measured { context.lastHeapCheck = finished }
            return Call(
                outcome: outcome,
                logs: context.hasLogs ? context.drainLogs() : [],
                heapBytes: measured ? context.heapSize(collectingYoungFirst: slow) : nil
            )
        }
    }

    /// JavaScriptCore cannot stop some native work (sorting a huge typed array, say) until
    /// it returns, so a call can run far past its CPU limit. Once the running call is past its
    /// budget plus the grace, every caller waiting on this worker is answered `.timedOut`
    /// and the worker marked stalled. Returns how many callers were let go.
    func abandonIfOverdue() -> Int {
        let deadline = overdueAt.load(ordering: .relaxed)
        guard deadline != 0, Self.uptime > deadline else { return 0 }
        let callers = waiting.withLock { waiting in
            defer { waiting.callers.removeAll() }
            return Array(waiting.callers.values)
        }
        guard !callers.isEmpty else { return 0 }
        stalled.store(true, ordering: .sequentiallyConsistent)
        // The call may have returned meanwhile; then nothing would clear the mark.
        if overdueAt.load(ordering: .sequentiallyConsistent) == 0 { stalled.store(false, ordering: .sequentiallyConsistent) }
        for caller in callers { caller.resume(returning: Call(outcome: .timedOut, logs: [], heapBytes: nil)) }
        return callers.count
    }

    private static var uptime: UInt64 { DispatchTime.now().uptimeNanoseconds }

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        UInt64(duration.components.seconds) * 1_000_000_000 + UInt64(duration.components.attoseconds / 1_000_000_000)
    }

    /// Drops a script version's VM, after every call queued before this one.
    func unload(_ key: Key) {
        queue.async { _ = self.contexts.withLock { $0.removeValue(forKey: key) } }
    }

    private func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
    }
}
