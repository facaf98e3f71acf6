import ServiceLifecycle
import SwitchboardCore

/// Periodically sends online clients the messages they received but never acknowledged.
struct RedeliveryService: Service {
    let core: MessagingCore
    let interval: Duration

    func run() async throws {
        // Sleeping ends with an error once shutdown begins; that is how the loop stops.
        try? await cancelWhenGracefulShutdown {
            while true {
                try await Task.sleep(for: interval)
                await core.redeliverUnacknowledged()
            }
        }
    }
}
