import Prometheus
import Synchronization

/// Per-handler counters and latencies, served in Prometheus' text format at `/metrics`.
public final class HookMetrics: Sendable {
    public enum Outcome: Sendable {
        case passed
        case modified
        case stopped
        case failed
        case timedOut
    }

    public let registry: PrometheusCollectorRegistry

    private static let buckets: [Duration] = [
        .microseconds(5), .microseconds(10), .microseconds(25), .microseconds(50), .microseconds(100),
        .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(5), .milliseconds(25),
        .milliseconds(100), .milliseconds(500), .seconds(2),
    ]

    /// The metrics of one handler at one point, looked up in the registry once rather than
    /// on every call.
    struct Series: Sendable {
        var calls: Counter
        var duration: DurationHistogram
        var modifications: Counter
        var drops: Counter
        var failures: Counter
        var timeouts: Counter

        func record(_ outcome: Outcome, duration elapsed: Duration) {
            calls.increment()
            duration.record(elapsed)
            switch outcome {
            case .passed: break
            case .modified: modifications.increment()
            case .stopped: drops.increment()
            case .failed: failures.increment()
            case .timedOut: timeouts.increment()
            }
        }
    }

    private struct SeriesKey: Hashable {
        var handler: String
        var kind: String
        var point: HookPoint
    }

    private let series = Mutex<[SeriesKey: Series]>([:])

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
    }

    /// A counter of the server's own, `switchboard_<subsystem>_<name>_total`, in this registry.
    public func makeCounter(subsystem: String, name: String, help: String, labels: [(String, String)] = []) -> Counter {
        registry.makeCounter(descriptor: Self.counter(subsystem, name, help), labels: labels)
    }

    /// A gauge of the server's own, `switchboard_<subsystem>_<name>`, in this registry.
    public func makeGauge(subsystem: String, name: String, help: String, labels: [(String, String)] = []) -> Gauge {
        registry.makeGauge(
            descriptor: MetricNameDescriptor(namespace: "switchboard", subsystem: subsystem, metricName: name, unitName: "", helpText: help), labels: labels
        )
    }

    private static func counter(_ subsystem: String, _ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "switchboard", subsystem: subsystem, metricName: name, unitName: "total", helpText: help)
    }

    func series(handler: String, kind: String, point: HookPoint) -> Series {
        let key = SeriesKey(handler: handler, kind: kind, point: point)
        return series.withLock { known in
            if let found = known[key] { return found }
            let labels = [("handler", key.handler), ("kind", key.kind), ("point", key.point.rawValue)]
            let made = Series(
                calls: registry.makeCounter(descriptor: Self.counter("hook", "calls", "Hook handler calls."), labels: labels),
                duration: registry.makeDurationHistogram(
                    descriptor: MetricNameDescriptor(
                        namespace: "switchboard", subsystem: "hook", metricName: "duration", unitName: "seconds",
                        helpText: "Time a hook handler took, failures and time-outs included."
                    ),
                    labels: labels, buckets: Self.buckets
                ),
                modifications: registry.makeCounter(descriptor: Self.counter("hook", "modifications", "Calls that changed the request."), labels: labels),
                drops: registry.makeCounter(descriptor: Self.counter("hook", "drops", "Calls that stopped the chain (drop or reject)."), labels: labels),
                failures: registry.makeCounter(descriptor: Self.counter("hook", "failures", "Calls that threw or returned a malformed result."), labels: labels),
                timeouts: registry.makeCounter(descriptor: Self.counter("hook", "timeouts", "Calls stopped at their time budget."), labels: labels)
            )
            known[key] = made
            return made
        }
    }
}
