/// One handler in the pipeline: a Swift plugin, a built-in, or a script. The pipeline
/// orders them, gives each its budget and applies the failure policy.
public protocol HookHandler: Sendable {
    var name: String { get }
    /// `plugin`, `builtin`, `script` or `remote`, for `hooks list` and metrics.
    var kind: String { get }
    var version: String { get }
    var priority: Int { get }
    /// The handler's own wishes; config overrides them, and hook point defaults fill gaps.
    var budget: Duration? { get }
    var failurePolicy: FailurePolicy? { get }
    /// Hook points this handler takes part in.
    var points: Set<HookPoint> { get }
    /// True for handlers that stop themselves at their budget (scripts, through the
    /// JavaScript VM's CPU limit, which throw `HookTimeout`); the pipeline then spares them
    /// its own timer.
    var enforcesBudget: Bool { get }

    func handle<Request: HookRequest>(_ request: Request) async throws -> Request.Result
}

extension HookHandler {
    public var enforcesBudget: Bool { false }
}

/// Runs a `SwitchboardPlugin` as a pipeline handler.
public struct PluginHandler: HookHandler {
    public let plugin: any SwitchboardPlugin

    public init(_ plugin: any SwitchboardPlugin) {
        self.plugin = plugin
    }

    public var name: String { plugin.name }
    public var kind: String { "plugin" }
    public var version: String { plugin.version }
    public var priority: Int { plugin.priority }
    public var budget: Duration? { plugin.budget }
    public var failurePolicy: FailurePolicy? { plugin.failurePolicy }
    /// A plugin's pass-through defaults make it cheap everywhere, so it joins every point.
    public var points: Set<HookPoint> { Set(HookPoint.allCases) }

    public func handle<Request: HookRequest>(_ request: Request) async throws -> Request.Result {
        try await request.dispatch(to: plugin)
    }
}
