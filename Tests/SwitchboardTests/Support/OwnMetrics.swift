import SwitchboardHooks
import SwitchboardServer
import Testing

extension HookMetrics {
    /// Metrics kept in a Prometheus registry of the test's own: swift-metrics' process-wide
    /// backend is one for all the tests of the process.
    static func inOwnRegistry() -> HookMetrics {
        HookMetrics(factory: PrometheusMetrics())
    }

    /// Every series, as `/metrics` would answer (from `inOwnRegistry()`'s metrics only).
    var exposition: String {
        guard let prometheus = factory as? PrometheusMetrics else {
            Issue.record("these metrics are not kept in a registry of the test's own")
            return ""
        }
        return prometheus.exposition()
    }
}
