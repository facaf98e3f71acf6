/// Medians and percentiles of timed samples.
struct Statistics: Sendable {
    let samples: [Duration]

    init(_ samples: [Duration]) {
        self.samples = samples.sorted()
    }

    func percentile(_ p: Double) -> Duration {
        guard !samples.isEmpty else { return .zero }
        let index = min(samples.count - 1, Int((Double(samples.count - 1) * p).rounded()))
        return samples[index]
    }

    var median: Duration { percentile(0.5) }
    var p99: Duration { percentile(0.99) }
}

extension Duration {
    var microseconds: Double {
        Double(components.seconds) * 1e6 + Double(components.attoseconds) / 1e12
    }
}
