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

    /// Calls between two heap measurements of a script VM.
    static let heapCheckInterval = 16

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

    init(index: Int) {
        self.index = index
        queue = DispatchQueue(label: "switchboard.js.worker.\(index)")
    }

    /// Calls waiting or running here: the pool sends work to the least busy worker.
    var load: Int { inFlight.load(ordering: .relaxed) }

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

    func invoke(_ key: Key, hook: String, paramsJSON: String) async -> Call {
        inFlight.add(1, ordering: .relaxed)
        defer { inFlight.subtract(1, ordering: .relaxed) }
        return await run {
            self.contexts.withLock { contexts in
                guard let context = contexts[key] else { return Call(outcome: .notLoaded, logs: [], heapBytes: nil) }
                let outcome: Outcome = switch context.invoke(hook: hook, paramsJSON: paramsJSON) {
                case .value(let json): .value(json)
                case .failed(let message): .failed(message)
                case .timedOut: .timedOut
                }
                // Heap statistics walk the whole heap: look only every so often.
                let measured = context.callsSinceHeapCheck >= Self.heapCheckInterval
                if measured { context.callsSinceHeapCheck = 0 } else { context.callsSinceHeapCheck += 1 }
                return Call(
                    outcome: outcome,
                    logs: context.hasLogs ? context.drainLogs() : [],
                    heapBytes: measured ? context.heapSize : nil
                )
            }
        }
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
