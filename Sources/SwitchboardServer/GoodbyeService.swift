import ServiceLifecycle

/// On shutdown, tells every client `goaway` (reconnect later) and closes its connection
/// before the HTTP server stops. Listed after the server so that it shuts down first.
struct GoodbyeService: Service {
    let gateway: WebSocketGateway

    func run() async throws {
        try? await gracefulShutdown()
        gateway.sayGoodbye()
        // Give the writers a moment to flush `goaway` before the server closes sockets.
        try? await Task.sleep(for: .milliseconds(200))
    }
}
