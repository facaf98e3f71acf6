extension LoopbackHTTP2Server {
    /// The requests to `path` once there are `count` of them (in order of arrival), or fails
    /// after `timeout`.
    func requests(to path: String, count: Int, timeout: Duration = .seconds(10)) async throws -> [Request] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let matching = requests.filter { $0.path == path }
            if matching.count >= count { return matching }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestClient.Timeout(description: "\(requests.filter { $0.path == path }.count) of \(count) requests to \(path) reached the stand-in")
    }
}
