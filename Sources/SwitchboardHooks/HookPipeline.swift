import Logging
import Synchronization

/// Runs the handlers of each hook point in a fixed order (higher priority first, then by
/// name), each seeing the request as the previous one left it. Handlers come and go at run
/// time (scripts reload); a run uses the chain as it was when it started.
public final class HookPipeline: Sendable {
    /// A handler as the pipeline runs it, with config applied.
    public struct Entry: Sendable {
        public let handler: any HookHandler
        public let priority: Int
    }

    /// A handler of one point's chain as a run needs it: budget, policy and metrics looked
    /// up when the chain changes, not on every call.
    private struct Link: Sendable {
        let entry: Entry
        let budget: Duration
        let policy: FailurePolicy
        let metrics: HookMetrics.Series
    }

    private struct Registry: Sendable {
        /// Every handler, in run order.
        var entries: [Entry] = []
        /// Each point's chain, rebuilt from `entries` whenever a handler comes or goes.
        var chains: [HookPoint: [Link]] = [:]
    }

    private let registry = Mutex(Registry())
    public let settings: HookSettings
    public let metrics: HookMetrics
    private let logger: Logger

    public init(settings: HookSettings = HookSettings(), metrics: HookMetrics = HookMetrics(), logger: Logger) {
        self.settings = settings
        self.metrics = metrics
        self.logger = logger
    }

    /// Adds a handler, replacing one of the same name.
    public func register(_ handler: any HookHandler) {
        guard settings.isEnabled(handler) else {
            logger.notice("hook handler disabled by config", metadata: ["handler": "\(handler.name)"])
            return
        }
        let entry = Entry(handler: handler, priority: settings.priority(of: handler))
        change { entries in
            entries.removeAll { $0.handler.name == handler.name }
            entries.append(entry)
            entries.sort { ($0.priority, $1.handler.name) > ($1.priority, $0.handler.name) }
        }
    }

    public func unregister(name: String) {
        change { $0.removeAll { $0.handler.name == name } }
    }

    private func change(_ body: (inout [Entry]) -> Void) {
        registry.withLock { registry in
            body(&registry.entries)
            registry.chains = [:]
            for point in HookPoint.allCases {
                let chain = registry.entries.filter { $0.handler.points.contains(point) }.map { entry in
                    let (budget, policy) = settings.policy(for: entry.handler, at: point)
                    let series = metrics.series(handler: entry.handler.name, kind: entry.handler.kind, point: point)
                    return Link(entry: entry, budget: budget, policy: policy, metrics: series)
                }
                if !chain.isEmpty { registry.chains[point] = chain }
            }
        }
    }

    /// The chain of one hook point, in the order it runs.
    public func chain(for point: HookPoint) -> [Entry] {
        links(for: point).map(\.entry)
    }

    private func links(for point: HookPoint) -> [Link] {
        registry.withLock { $0.chains[point] ?? [] }
    }

    /// A handler of a chain with what config made of it, for `hooks list`.
    public struct ResolvedHandler: Sendable {
        public var name: String
        public var kind: String
        public var version: String
        public var priority: Int
        public var budget: Duration
        public var failurePolicy: FailurePolicy
    }

    public func resolvedChain(for point: HookPoint) -> [ResolvedHandler] {
        links(for: point).map { link in
            ResolvedHandler(
                name: link.entry.handler.name, kind: link.entry.handler.kind, version: link.entry.handler.version,
                priority: link.entry.priority, budget: link.budget, failurePolicy: link.policy
            )
        }
    }

    public func hasHandlers(for point: HookPoint) -> Bool {
        registry.withLock { $0.chains[point] != nil }
    }

    /// Runs a blocking hook point's chain and says what it decided.
    public func run<Request: HookRequest>(_ request: Request) async -> HookOutcome<Request> {
        var outcome = HookOutcome(request: request, stop: nil, steps: [])
        for link in links(for: request.point) {
            let handler = link.entry.handler
            let current = outcome.request
            let started = ContinuousClock.now
            do {
                let result = handler.enforcesBudget
                    ? try await handler.handle(current)
                    : try await Budget.run(link.budget) { try await handler.handle(current) }
                let next = current.applying(result)
                outcome.steps.append(.init(handler: handler.name, result: result))
                if result.stopsChain {
                    link.metrics.record(.stopped, duration: ContinuousClock.now - started)
                    outcome.stop = .init(handler: handler.name, code: result.code, detail: result.detail, failed: false)
                    return outcome
                }
                link.metrics.record(next == current ? .passed : .modified, duration: ContinuousClock.now - started)
                outcome.request = next
            } catch {
                let timedOut = error is HookTimeout
                link.metrics.record(timedOut ? .timedOut : .failed, duration: ContinuousClock.now - started)
                logger.warning(timedOut ? "hook handler timed out" : "hook handler failed", metadata: [
                    "handler": "\(handler.name)", "version": "\(handler.version)", "kind": "\(handler.kind)",
                    "point": "\(request.point.rawValue)", "budget": "\(link.budget)", "policy": "\(link.policy.rawValue)",
                    "error": "\(error)",
                ])
                guard link.policy == .closed else { continue }
                let detail = timedOut ? "hook \(handler.name) timed out" : "hook \(handler.name) failed"
                outcome.steps.append(.init(handler: handler.name, result: .failedClosed(detail: detail)))
                outcome.stop = .init(handler: handler.name, code: nil, detail: detail, failed: true)
                return outcome
            }
        }
        return outcome
    }
}
