extension LoopbackHTTP2Server {
    /// The requests to `path` once there are `count` of them (in order of arrival), or fails
    /// after `timeout`.
    func requests(to path: String, count: Int, timeout: Duration = .seconds(10)) async throws -> [Request] {
        try await requests(until: { requests in requests.count { $0.path == path } >= count }, timeout: timeout, "\(count) requests to \(path)")
            .filter { $0.path == path }
    }
}
