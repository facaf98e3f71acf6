import CoreMetrics

/// A metrics backend that shows what each series means beside it (Prometheus' `# HELP`) and
/// takes a timer's buckets by its label. swift-metrics' factory calls carry a label and
/// dimensions only, so `HookMetrics` tells such a backend the rest before the series' first
/// use; other backends are not told.
public protocol DescribedMetricsFactory: MetricsFactory {
    /// `help` says what the series labelled `label` counts; `buckets`, for a timer, are its
    /// histogram's upper bounds.
    func describe(_ label: String, help: String, buckets: [Duration]?)
}
