/// Budgets and failure policies, from the `hooks` section of the config.
public struct HookSettings: Sendable, Equatable {
    public struct Policy: Sendable, Equatable {
        public var budget: Duration?
        public var failurePolicy: FailurePolicy?

        public init(budget: Duration? = nil, failurePolicy: FailurePolicy? = nil) {
            self.budget = budget
            self.failurePolicy = failurePolicy
        }
    }

    public struct HandlerOverride: Sendable, Equatable {
        public var priority: Int?
        public var policy: Policy
        public var enabled: Bool

        public init(priority: Int? = nil, policy: Policy = Policy(), enabled: Bool = true) {
            self.priority = priority
            self.policy = policy
            self.enabled = enabled
        }
    }

    /// For any handler at any point that says nothing more specific.
    public var defaultBudget: Duration
    public var defaultFailurePolicy: FailurePolicy
    public var points: [HookPoint: Policy]
    /// By handler name.
    public var handlers: [String: HandlerOverride]

    public init(
        defaultBudget: Duration = .milliseconds(500), defaultFailurePolicy: FailurePolicy = .open,
        points: [HookPoint: Policy] = [:], handlers: [String: HandlerOverride] = [:]
    ) {
        self.defaultBudget = defaultBudget
        self.defaultFailurePolicy = defaultFailurePolicy
        self.points = points
        self.handlers = handlers
    }

    /// Config's word on the handler first, then the handler's own, then the hook point's,
    /// then the default.
    public func policy(for handler: any HookHandler, at point: HookPoint) -> (budget: Duration, failurePolicy: FailurePolicy) {
        let override = handlers[handler.name]?.policy
        let atPoint = points[point]
        return (
            override?.budget ?? handler.budget ?? atPoint?.budget ?? defaultBudget,
            override?.failurePolicy ?? handler.failurePolicy ?? atPoint?.failurePolicy ?? defaultFailurePolicy
        )
    }

    func priority(of handler: any HookHandler) -> Int {
        handlers[handler.name]?.priority ?? handler.priority
    }

    func isEnabled(_ handler: any HookHandler) -> Bool {
        handlers[handler.name]?.enabled ?? true
    }
}
