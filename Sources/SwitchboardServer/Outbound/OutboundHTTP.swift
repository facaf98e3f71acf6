import AsyncHTTPClient

/// The server's one HTTP client for calls it makes on hooks' behalf (scripts' requests,
/// remote hooks): pooled keep-alive connections with TCP_NODELAY (SwiftNIO's default for
/// clients), no redirects followed by the client itself.
enum OutboundHTTP {
    /// Connections kept per host; remote engines cap their calls in flight to the same.
    static let connectionsPerHost = 64

    /// AsyncHTTPClient requires a client to be shut down before it is deinitialised; a
    /// static never is, and the pool lives as long as the process.
    static let client = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup,
        configuration: .init(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5)),
            connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connectionsPerHost)
        )
    )
}
