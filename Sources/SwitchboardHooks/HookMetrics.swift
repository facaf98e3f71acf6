import Prometheus

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

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
    }

    func record(handler: String, kind: String, point: HookPoint, outcome: Outcome, duration: Duration) {
        let labels = [("handler", handler), ("kind", kind), ("point", point.rawValue)]
        registry.makeCounter(name: "switchboard_hook_calls_total", labels: labels).increment()
        registry.makeDurationHistogram(name: "switchboard_hook_duration_seconds", labels: labels, buckets: Self.buckets).record(duration)
        let name: String? = switch outcome {
        case .passed: nil
        case .modified: "switchboard_hook_modifications_total"
        case .stopped: "switchboard_hook_drops_total"
        case .failed: "switchboard_hook_failures_total"
        case .timedOut: "switchboard_hook_timeouts_total"
        }
        if let name { registry.makeCounter(name: name, labels: labels).increment() }
    }
}
