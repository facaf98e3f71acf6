import SwitchboardHooks
import SwitchboardJSON

/// One loaded version of a hook script, as a pipeline handler. Calls that started on this
/// version finish on it; its VMs go when the last reference does.
final class ScriptHandler: HookHandler {
    let name: String
    let version: String
    let kind = "script"
    let priority: Int
    let budget: Duration?
    let failurePolicy: FailurePolicy?
    let points: Set<HookPoint>
    /// What the script declares that is not run: `function hello`, `beforeSave Post`, ...
    let notRun: [String]
    /// The VM's CPU limit stops a call at its budget.
    let enforcesBudget = true
    let key: ScriptWorker.Key
    private let pool: ScriptPool
    private let afterCall: @Sendable (ScriptWorker.Call, ScriptHandler) -> Void

    init(
        key: ScriptWorker.Key, points: Set<HookPoint>, notRun: [String], options: ScriptOptions, pool: ScriptPool,
        afterCall: @escaping @Sendable (ScriptWorker.Call, ScriptHandler) -> Void
    ) {
        name = key.name
        version = key.version
        self.key = key
        self.points = points
        self.notRun = notRun
        priority = options.priority ?? 0
        budget = options.budgetMs.map { .milliseconds($0) }
        failurePolicy = options.onFailure
        self.pool = pool
        self.afterCall = afterCall
    }

    deinit {
        pool.unload(key)
    }

    func handle<Request: HookRequest>(_ request: Request) async throws -> Request.Result {
        let call = await pool.invoke(key, hook: request.point.rawValue, paramsJSON: request.paramsJSON)
        afterCall(call, self)
        switch call.outcome {
        case .value(let json):
            return try Request.Result(json: JSONValue(parsing: json))
        case .failed(let message):
            throw ScriptFailure(message: message)
        case .timedOut:
            throw HookTimeout()
        case .exceededMemory:
            throw ScriptFailure(message: "\(name) grew past its memory limit")
        case .notLoaded:
            throw ScriptFailure(message: "\(name) \(version) is no longer loaded")
        }
    }
}

/// A script call that threw or rejected.
struct ScriptFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// What a script asked for with `AV.Cloud.setHookOptions`.
struct ScriptOptions: Decodable, Sendable, Equatable {
    var priority: Int?
    var budgetMs: Int?
    var onFailure: FailurePolicy?
}
