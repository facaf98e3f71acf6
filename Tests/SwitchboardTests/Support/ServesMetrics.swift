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
        try await scrape(until: { $0 >= value }, timeout: timeout) { try await metric(series) }
    }

    /// What `read` reads once `done` says so of it, or what it last read after `timeout`: a
    /// scraper's reads, as the server has no way to tell a test that a count moved.
    func scrape<Read>(until done: (Read) -> Bool, timeout: Duration, _ read: () async throws -> Read) async throws -> Read {
        let deadline = ContinuousClock.now + timeout
        var last = try await read()
        while !done(last), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            last = try await read()
        }
        return last
    }
}
