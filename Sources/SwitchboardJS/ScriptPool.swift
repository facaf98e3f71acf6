/// The JavaScript workers. Every script is loaded on each of them, so calls to any script
/// can run on as many threads as there are workers.
final class ScriptPool: Sendable {
    private let workers: [ScriptWorker]
    private let overdueCheck: Task<Void, Never>

    /// `onAbandon(worker, callers)` hears when a worker's callers were let go because its
    /// running call overran its budget by more than `overrunGrace`.
    init(size: Int, overrunGrace: Duration, onAbandon: @escaping @Sendable (Int, Int) -> Void) {
        let workers = (0..<max(size, 1)).map { ScriptWorker(index: $0, overrunGrace: overrunGrace) }
        self.workers = workers
        let interval = min(overrunGrace / 4, .milliseconds(100))
        overdueCheck = Task {
            while (try? await Task.sleep(for: interval)) != nil {
                for worker in workers {
                    let abandoned = worker.abandonIfOverdue()
                    if abandoned > 0 { onAbandon(worker.index, abandoned) }
                }
            }
        }
    }

    deinit {
        overdueCheck.cancel()
    }

    var size: Int { workers.count }

    /// Loads a script version on every worker; if it fails anywhere it is loaded nowhere.
    func load(_ key: ScriptWorker.Key, source: String, file: String, budget: Duration) async throws(ScriptError) -> ScriptWorker.LoadReport {
        let results = await withTaskGroup(of: Result<ScriptWorker.LoadReport, ScriptError>.self) { group in
            for worker in workers {
                group.addTask {
                    do throws(ScriptError) {
                        return .success(try await worker.load(key, source: source, file: file, budget: budget))
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

    func setBudget(_ key: ScriptWorker.Key, _ budget: Duration) async {
        for worker in workers { await worker.setBudget(key, budget) }
    }

    /// Runs a call on the least busy worker that is not stalled (any worker if all are).
    func invoke(_ key: ScriptWorker.Key, hook: String, paramsJSON: String) async -> ScriptWorker.Call {
        var chosen: ScriptWorker?
        for worker in workers where !worker.isStalled && worker.load < (chosen?.load ?? .max) {
            chosen = worker
        }
        let worker = chosen ?? workers.min { $0.load < $1.load } ?? workers[0]
        return await worker.invoke(key, hook: hook, paramsJSON: paramsJSON)
    }

    func unload(_ key: ScriptWorker.Key) {
        for worker in workers { worker.unload(key) }
    }
}
