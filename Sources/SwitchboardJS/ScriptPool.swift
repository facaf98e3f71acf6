import Foundation
import Synchronization

/// The script hosts. Every script is loaded on each of them, so calls to any script can run
/// in as many processes as there are workers.
final class ScriptPool: Sendable {
    private let workers: [ScriptWorker]
    private let overdueWatch: OverdueWatch

    /// - Parameters:
    ///   - executable: what hosts run (see `HostProcess.executable`).
    ///   - allowance: bytes a host may grow past what its scripts took to load.
    ///   - onLoss: hears when a host was killed or died in a script's request, and why.
    ///   - services: what running calls may ask for (see `ScriptServices`).
    init(
        size: Int, overrunGrace: Duration, executable: String, allowance: Int,
        services: ScriptServices, onLoss: @escaping @Sendable (ScriptWorker.Loss, ScriptWorker.Key) -> Void
    ) {
        let questions = ScriptQuestions(services: services)
        let workers = (0..<max(size, 1)).map {
            ScriptWorker(index: $0, executable: executable, allowance: allowance, overrunGrace: overrunGrace, onLoss: onLoss, questions: questions)
        }
        self.workers = workers
        overdueWatch = OverdueWatch(workers: workers, interval: min(overrunGrace / 4, .milliseconds(50)))
    }

    deinit {
        overdueWatch.stop()
        for worker in workers { worker.stop() }
    }

    var size: Int { workers.count }

    /// Loads a script version on every worker; if it fails anywhere it is loaded nowhere.
    func load(
        _ key: ScriptWorker.Key, source: ScriptContext.Source, file: String, budget: Duration, env: [String: String]
    ) async throws(ScriptError) -> ScriptWorker.LoadReport {
        let envJSON = (try? JSONEncoder().encode(env)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let results = await withTaskGroup(of: Result<ScriptWorker.LoadReport, ScriptError>.self) { group in
            for worker in workers {
                group.addTask {
                    do throws(ScriptError) {
                        return .success(try await worker.load(key, source: source, file: file, budget: budget, envJSON: envJSON))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            var results: [Result<ScriptWorker.LoadReport, ScriptError>] = []
            for await result in group { results.append(result) }
            return results
        }
        for result in results {
            if case .failure(let error) = result {
                unload(key)
                throw error
            }
        }
        return try results[0].get()
    }

    func setBudget(_ key: ScriptWorker.Key, _ budget: Duration) {
        for worker in workers { worker.setBudget(key, budget) }
    }

    /// Runs a call on the least busy worker whose host is not being replaced (any worker if
    /// all are).
    func invoke(_ key: ScriptWorker.Key, hook: String, paramsJSON: String) async -> ScriptWorker.Call {
        await (Self.leastBusy(of: workers) ?? workers[0]).invoke(key, hook: hook, paramsJSON: paramsJSON)
    }

    /// The worker with the fewest requests among those whose host is ready and not stalled.
    private static func leastBusy(of workers: [ScriptWorker]) -> ScriptWorker? {
        var chosen: ScriptWorker?
        var chosenLoad = Int.max
        for worker in workers {
            if let load = worker.loadUnlessStalled, load < chosenLoad { (chosen, chosenLoad) = (worker, load) }
        }
        return chosen
    }

    /// Kills the hosts stuck past their budget and grace, and sends the calls waiting behind
    /// a request past its budget to the other hosts (with one host, they wait).
    fileprivate static func watch(_ workers: [ScriptWorker]) {
        for worker in workers {
            _ = worker.killIfOverdue()
            let others = workers.filter { $0 !== worker }
            guard leastBusy(of: others) != nil else { continue }
            for call in worker.takeBackCallsBehindAnOverrun() {
                (leastBusy(of: others) ?? others[0]).run(call)
            }
        }
    }

    func unload(_ key: ScriptWorker.Key) {
        for worker in workers { worker.unload(key) }
    }
}

/// Looks for overdue requests from a thread of its own: a caller blocked writing to a stuck
/// host must not be what keeps the host from being killed, nor what keeps the calls behind
/// it waiting.
private final class OverdueWatch: Sendable {
    private let running = Atomic<Bool>(true)

    init(workers: [ScriptWorker], interval: Duration) {
        let microseconds = UInt32(ScriptWorker.nanoseconds(interval) / 1000)
        let thread = Thread { [self] in
            while running.load(ordering: .relaxed) {
                usleep(microseconds)
                ScriptPool.watch(workers)
            }
        }
        thread.name = "switchboard.js.overdue"
        thread.start()
    }

    func stop() {
        running.store(false, ordering: .relaxed)
    }
}
