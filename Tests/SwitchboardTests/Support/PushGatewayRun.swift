import Logging
import SwitchboardCore
import SwitchboardHooks
@testable import SwitchboardServer
import SwitchboardStore

/// A push provider run on its own as `SwitchboardApplication` runs it (on its own work queue,
/// with a real store), for what a push from a conversation cannot reach.
enum PushGatewayRun {
    /// Pushes `notice` through the provider `make` makes and answers the metrics once the
    /// provider's queue has done its work.
    static func metrics(
        pushing notice: PushNotice, queue name: String, make: (any MessageStore, WorkQueue, HookMetrics, Logger) throws -> any PushGateway
    ) async throws -> String {
        let metrics = HookMetrics.inOwnRegistry()
        let queue = WorkQueue(name: name, capacity: 100, workers: 4, whenFull: .drop, metrics: .init(name: name, in: metrics))
        let gateway = try make(try SQLiteStore(path: TestServer.temporaryDirectory() + "/switchboard.sqlite"), queue, metrics, Logger(label: "test"))
        let workers = Task { await queue.run() }
        await gateway.push(notice)
        queue.close()
        await workers.value
        return metrics.exposition
    }
}
