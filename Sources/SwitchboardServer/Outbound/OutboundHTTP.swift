import AsyncHTTPClient

/// The server's one HTTP client for calls it makes on hooks' behalf (scripts' requests,
/// remote hooks): pooled keep-alive connections with TCP_NODELAY (SwiftNIO's default for
/// clients), no redirects followed by the client itself. A connection that cannot be made
/// (refused, unreachable) fails its request at once instead of being tried again with
/// backoff until the connect time-out: a hook call has a budget of its own, and an engine
/// that is down should cost each call microseconds under its failure policy (and count
/// towards its circuit breaker), not the whole budget.
enum OutboundHTTP {
    /// Connections kept per host; remote engines cap their calls in flight to the same.
    static let connectionsPerHost = 64

    /// AsyncHTTPClient requires a client to be shut down before it is deinitialised; a
    /// static never is, and the pool lives as long as the process.
    static let client = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup,
        configuration: .init(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5)),
            connectionPool: pool
        )
    )

    /// What `work` gives, or nil once `time` has passed. The work is then cancelled, and
    /// with it its request: the client lets the connection go at once. Cancelling the caller
    /// cancels the work too. (A deadline of the client's own would not cover the body.)
    static func within<Value: Sendable>(_ time: Duration, _ work: @escaping @Sendable () async throws -> Value) async throws -> Value? {
        try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try? await Task.sleep(for: time)
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }

    private static var pool: HTTPClient.Configuration.ConnectionPool {
        var pool = HTTPClient.Configuration.ConnectionPool(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connectionsPerHost)
        pool.retryConnectionEstablishment = false
        return pool
    }
}
