import Metrics
import Testing
@testable import SwitchboardHooks
import SwitchboardServer

/// What `/metrics` shows of a series recorded through swift-metrics: operators' dashboards and
/// alerts read these lines, so help texts, types and a histogram's buckets are as before.
@Suite(.storeBlind) struct MetricsExpositionTests {
    @Test func seriesKeepTheirHelpTypeAndBuckets() {
        let metrics = HookMetrics.inOwnRegistry()
        metrics.makeCounter(subsystem: "work", name: "jobs_completed", help: "Jobs a work queue ran.", labels: [("queue", "push")]).increment(by: 2)
        metrics.makeGauge(subsystem: "work", name: "queue_depth", help: "Jobs waiting in a work queue.").set(3.0)
        metrics.series(handler: "h", kind: "plugin", point: .messageReceived).record(.modified, duration: .milliseconds(3))
        let text = metrics.exposition
        for line in [
            "# HELP switchboard_work_jobs_completed_total Jobs a work queue ran.",
            "# TYPE switchboard_work_jobs_completed_total counter",
            #"switchboard_work_jobs_completed_total{queue="push"} 2"#,
            "# HELP switchboard_work_queue_depth Jobs waiting in a work queue.",
            "# TYPE switchboard_work_queue_depth gauge",
            "switchboard_work_queue_depth 3.0",
            "# HELP switchboard_hook_duration_seconds Time a hook handler took, failures and time-outs included.",
            "# TYPE switchboard_hook_duration_seconds histogram",
            #"switchboard_hook_duration_seconds_bucket{handler="h",kind="plugin",point="_messageReceived",le="0.001"} 0"#,
            #"switchboard_hook_duration_seconds_bucket{handler="h",kind="plugin",point="_messageReceived",le="0.005"} 1"#,
            #"switchboard_hook_duration_seconds_bucket{handler="h",kind="plugin",point="_messageReceived",le="2.0"} 1"#,
            #"switchboard_hook_modifications_total{handler="h",kind="plugin",point="_messageReceived"} 1"#,
        ] {
            #expect(text.contains(line + "\n"), "\(line)")
        }
        let buckets = text.split(separator: "\n").filter { $0.hasPrefix("switchboard_hook_duration_seconds_bucket") }
        #expect(buckets.count == 14, "13 bounds and +Inf")
    }

    /// A series no one described (a library recording through the process's backend) is
    /// still served, with swift-prometheus' defaults.
    @Test func anUndescribedSeriesIsServedToo() {
        let prometheus = PrometheusMetrics()
        Counter(label: "other_library_requests_total", dimensions: [("path", "/")], factory: prometheus).increment()
        #expect(prometheus.exposition().contains(#"other_library_requests_total{path="/"} 1"# + "\n"))
    }
}
