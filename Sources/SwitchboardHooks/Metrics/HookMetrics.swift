import Metrics
import Synchronization

/// The server's own metrics (`switchboard_…`) and each hook handler's counters and
/// latencies, recorded through swift-metrics: the application picks the backend once
/// (Prometheus, served at `/metrics`), the code that records names only the series.
public final class HookMetrics: Sendable {
    public enum Outcome: Sendable {
        case passed
        case modified
        case stopped
        case failed
        case timedOut
    }

    /// Where the series are made: swift-metrics' process-wide backend unless one is given
    /// (a test's own, so that servers in one process keep their series apart).
    public let factory: any MetricsFactory

    private static let buckets: [Duration] = [
        .microseconds(5), .microseconds(10), .microseconds(25), .microseconds(50), .microseconds(100),
        .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(5), .milliseconds(25),
        .milliseconds(100), .milliseconds(500), .seconds(2),
    ]

    /// The metrics of one handler at one point, looked up in the backend once rather than
    /// on every call.
    struct Series: Sendable {
        var calls: Counter
        var duration: Timer
        var modifications: Counter
        var drops: Counter
        var failures: Counter
        var timeouts: Counter

        func record(_ outcome: Outcome, duration elapsed: Duration) {
            calls.increment()
            duration.record(duration: elapsed)
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

    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        self.factory = factory
    }

    /// A counter of the server's own, `switchboard_<subsystem>_<name>_total`.
    public func makeCounter(subsystem: String, name: String, help: String, labels: [(String, String)] = []) -> Counter {
        Counter(label: describe("switchboard_\(subsystem)_\(name)_total", help), dimensions: labels, factory: factory)
    }

    /// A gauge of the server's own, `switchboard_<subsystem>_<name>`.
    public func makeGauge(subsystem: String, name: String, help: String, labels: [(String, String)] = []) -> Meter {
        Meter(label: describe("switchboard_\(subsystem)_\(name)", help), dimensions: labels, factory: factory)
    }

    /// `label`, once a backend that shows help texts and buckets has them.
    private func describe(_ label: String, _ help: String, buckets: [Duration]? = nil) -> String {
        (factory as? any DescribedMetricsFactory)?.describe(label, help: help, buckets: buckets)
        return label
    }

    func series(handler: String, kind: String, point: HookPoint) -> Series {
        let key = SeriesKey(handler: handler, kind: kind, point: point)
        return series.withLock { known in
            if let found = known[key] { return found }
            let labels = [("handler", key.handler), ("kind", key.kind), ("point", key.point.rawValue)]
            let made = Series(
                calls: makeCounter(subsystem: "hook", name: "calls", help: "Hook handler calls.", labels: labels),
                duration: Timer(
                    label: describe(
                        "switchboard_hook_duration_seconds", "Time a hook handler took, failures and time-outs included.", buckets: Self.buckets
                    ),
                    dimensions: labels, factory: factory
                ),
                modifications: makeCounter(subsystem: "hook", name: "modifications", help: "Calls that changed the request.", labels: labels),
                drops: makeCounter(subsystem: "hook", name: "drops", help: "Calls that stopped the chain (drop or reject).", labels: labels),
                failures: makeCounter(subsystem: "hook", name: "failures", help: "Calls that threw or returned a malformed result.", labels: labels),
                timeouts: makeCounter(subsystem: "hook", name: "timeouts", help: "Calls stopped at their time budget.", labels: labels)
            )
            known[key] = made
            return made
        }
    }
}
