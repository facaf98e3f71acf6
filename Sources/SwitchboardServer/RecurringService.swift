import ServiceLifecycle

/// Runs a piece of housekeeping at a fixed interval until the server shuts down.
struct RecurringService: Service {
    let interval: Duration
    let work: @Sendable () async -> Void

    func run() async throws {
        // Sleeping ends with an error once shutdown begins; that is how the loop stops.
        try? await cancelWhenGracefulShutdown {
            while true {
                try await Task.sleep(for: interval)
                await work()
            }
        }
    }
}
