import ServiceLifecycle
import SwitchboardStore

/// Closes the PostgreSQL store's connections once the server has shut down.
struct StoreClosingService: Service {
    let store: PostgresStore

    func run() async {
        try? await gracefulShutdown()
        await store.close()
    }
}
