import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A server whose Prometheus metrics a test reads over HTTP, as a scraper reads them.
protocol ServesMetrics {
    var port: Int { get }
}

extension TestServer: ServesMetrics {}
extension ServerProcess: ServesMetrics {}

extension ServesMetrics {
    /// Every series, as `/metrics` answers.
    func metrics() async throws -> String {
        let (data, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/metrics")!)
        return String(decoding: data, as: UTF8.self)
    }

    /// The value of the series written exactly `series` (name and labels), 0 when absent.
    func metric(_ series: String) async throws -> Int {
        let line = try await metrics().split(separator: "\n").first { $0.hasPrefix(series + " ") }
        return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
    }

    /// Waits up to `timeout` for the series to reach `value` (counts land a moment after
    /// what they count), and returns what it last read.
    func metric(_ series: String, reaches value: Int, timeout: Duration = .seconds(10)) async throws -> Int {
        let deadline = ContinuousClock.now + timeout
        var read = try await metric(series)
        while read < value, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            read = try await metric(series)
        }
        return read
    }
}
