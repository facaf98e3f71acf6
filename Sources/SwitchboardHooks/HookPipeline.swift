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

    private let handlers = Mutex<[Entry]>([])
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
        handlers.withLock { entries in
            entries.removeAll { $0.handler.name == handler.name }
            entries.append(entry)
            entries.sort { ($0.priority, $1.handler.name) > ($1.priority, $0.handler.name) }
        }
    }

    public func unregister(name: String) {
        handlers.withLock { $0.removeAll { $0.handler.name == name } }
    }

    /// The chain of one hook point, in the order it runs.
    public func chain(for point: HookPoint) -> [Entry] {
        handlers.withLock { $0.filter { $0.handler.points.contains(point) } }
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
        chain(for: point).map { entry in
            let (budget, policy) = settings.policy(for: entry.handler, at: point)
            return ResolvedHandler(
                name: entry.handler.name, kind: entry.handler.kind, version: entry.handler.version,
                priority: entry.priority, budget: budget, failurePolicy: policy
            )
        }
    }

    public func hasHandlers(for point: HookPoint) -> Bool {
        handlers.withLock { $0.contains { $0.handler.points.contains(point) } }
    }

    /// Runs a blocking hook point's chain and says what it decided.
    public func run<Request: HookRequest>(_ request: Request) async -> HookOutcome<Request> {
        var outcome = HookOutcome(request: request, stop: nil, steps: [])
        for entry in chain(for: request.point) {
            let handler = entry.handler
            let (budget, policy) = settings.policy(for: handler, at: request.point)
            let current = outcome.request
            let started = ContinuousClock.now
            do {
                let result = handler.enforcesBudget
                    ? try await handler.handle(current)
                    : try await Budget.run(budget) { try await handler.handle(current) }
                let next = current.applying(result)
                outcome.steps.append(.init(handler: handler.name, result: result))
                if result.stopsChain {
                    record(handler, request.point, .stopped, since: started)
                    outcome.stop = .init(handler: handler.name, code: result.code, detail: result.detail, failed: false)
                    return outcome
                }
                record(handler, request.point, next == current ? .passed : .modified, since: started)
                outcome.request = next
            } catch {
                let timedOut = error is HookTimeout
                record(handler, request.point, timedOut ? .timedOut : .failed, since: started)
                logger.warning(timedOut ? "hook handler timed out" : "hook handler failed", metadata: [
                    "handler": "\(handler.name)", "version": "\(handler.version)", "kind": "\(handler.kind)",
                    "point": "\(request.point.rawValue)", "budget": "\(budget)", "policy": "\(policy.rawValue)",
                    "error": "\(error)",
                ])
                guard policy == .closed else { continue }
                let detail = timedOut ? "hook \(handler.name) timed out" : "hook \(handler.name) failed"
                outcome.steps.append(.init(handler: handler.name, result: .failedClosed(detail: detail)))
                outcome.stop = .init(handler: handler.name, code: nil, detail: detail, failed: true)
                return outcome
            }
        }
        return outcome
    }

    private func record(_ handler: any HookHandler, _ point: HookPoint, _ outcome: HookMetrics.Outcome, since started: ContinuousClock.Instant) {
        metrics.record(handler: handler.name, kind: handler.kind, point: point, outcome: outcome, duration: ContinuousClock.now - started)
    }
}
