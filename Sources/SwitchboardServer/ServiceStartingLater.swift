import ServiceLifecycle

/// Runs `service` once `ready` returns: the HTTP server once this node hears the others.
struct ServiceStartingLater<Wrapped: Service>: Service {
    let service: Wrapped
    let ready: @Sendable () async -> Void

    func run() async throws {
        await ready()
        try await service.run()
    }
}
