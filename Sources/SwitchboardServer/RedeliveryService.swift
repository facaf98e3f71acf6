import ServiceLifecycle
import SwitchboardCore

/// Periodically sends online clients the messages they received but never acknowledged.
struct RedeliveryService: Service {
    let core: MessagingCore
    let interval: Duration

    func run() async throws {
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            try? await Task.sleep(for: interval)
            guard !Task.isShuttingDownGracefully, !Task.isCancelled else { return }
            await core.redeliverUnacknowledged()
        }
    }
}
