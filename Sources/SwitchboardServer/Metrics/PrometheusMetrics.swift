import Metrics
import Prometheus
import Synchronization
import SwitchboardHooks

/// The server's metrics backend: the series the code records through swift-metrics, kept in
/// a Prometheus registry that `/metrics` serves. What `HookMetrics` describes keeps its help
/// text (`# HELP`, which scrapes have always shown) and its buckets; swift-prometheus' own
/// `PrometheusMetricsFactory`, on the same registry, makes the rest with its defaults.
public final class PrometheusMetrics: DescribedMetricsFactory {
    private struct Description {
        var help: String
        var buckets: [Duration]?
    }

    private let registry = PrometheusCollectorRegistry()
    private let undescribed: PrometheusMetricsFactory
    private let descriptions = Mutex<[String: Description]>([:])

    /// The process's own, made swift-metrics' backend the first time it is asked for:
    /// swift-metrics takes one backend per process, once. A server reads its series from the
    /// instance it was given, so tests give each of theirs a new one.
    public static let bootstrapped: PrometheusMetrics = {
        let metrics = PrometheusMetrics()
        MetricsSystem.bootstrap(metrics)
        return metrics
    }()

    public init() {
        undescribed = PrometheusMetricsFactory(registry: registry)
    }

    /// Every series, in Prometheus' text format.
    public func exposition() -> String {
        registry.emitToString()
    }

    public func describe(_ label: String, help: String, buckets: [Duration]?) {
        descriptions.withLock { $0[label] = Description(help: help, buckets: buckets) }
    }

    private func description(of label: String) -> Description? {
        descriptions.withLock { $0[label] }
    }

    public func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        guard let description = description(of: label) else { return undescribed.makeCounter(label: label, dimensions: dimensions) }
        return registry.makeCounter(name: label, labels: dimensions, help: description.help)
    }

    public func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        guard let description = description(of: label) else { return undescribed.makeMeter(label: label, dimensions: dimensions) }
        return registry.makeGauge(name: label, labels: dimensions, help: description.help)
    }

    public func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        guard let description = description(of: label) else { return undescribed.makeTimer(label: label, dimensions: dimensions) }
        return registry.makeDurationHistogram(
            name: label, labels: dimensions, buckets: description.buckets ?? undescribed.defaultDurationHistogramBuckets, help: description.help
        )
    }

    // `HookMetrics` makes neither of these: whoever does gets swift-prometheus' defaults.

    public func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        undescribed.makeFloatingPointCounter(label: label, dimensions: dimensions)
    }

    public func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        undescribed.makeRecorder(label: label, dimensions: dimensions, aggregate: aggregate)
    }

    // Every handler is in `registry`, so swift-prometheus' factory takes each out of it.

    public func destroyCounter(_ handler: any CounterHandler) {
        undescribed.destroyCounter(handler)
    }

    public func destroyMeter(_ handler: any MeterHandler) {
        undescribed.destroyMeter(handler)
    }

    public func destroyTimer(_ handler: any TimerHandler) {
        undescribed.destroyTimer(handler)
    }

    public func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        undescribed.destroyFloatingPointCounter(handler)
    }

    public func destroyRecorder(_ handler: any RecorderHandler) {
        undescribed.destroyRecorder(handler)
    }
}
