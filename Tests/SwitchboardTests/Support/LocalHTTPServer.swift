import Hummingbird
import Logging
import ServiceLifecycle

/// A Hummingbird app on a free loopback port, playing a server that Switchboard calls.
struct LocalHTTPServer: Sendable {
    let port: Int
    private let group: ServiceGroup

    static func start(_ router: Router<BasicRequestContext>, label: String) async throws -> LocalHTTPServer {
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { portContinuation.yield($0.localAddress?.port ?? 0) }, logger: Logger(label: label)
        )
        let group = ServiceGroup(configuration: .init(services: [app], logger: Logger(label: label)))
        Task { try await group.run() }
        for await port in ports { return LocalHTTPServer(port: port, group: group) }
        throw TestClient.Timeout(description: "\(label) did not start")
    }

    func stop() async {
        await group.triggerGracefulShutdown()
    }
}
