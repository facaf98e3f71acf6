import Logging
import ServiceLifecycle
import SwitchboardCore

/// Runs a work queue's workers for the life of the server. On shutdown the queue takes no
/// more jobs and its workers finish what is queued for at most `drainTime`; what is left
/// then is dropped, counted and logged. Listed before the services that submit to it, so
/// that it shuts down after them.
struct WorkQueueService: Service {
    let queue: WorkQueue
    let drainTime: Duration
    let logger: Logger

    func run() async {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await queue.run()
                return true
            }
            try? await gracefulShutdown()
            queue.close()
            group.addTask {
                try? await Task.sleep(for: drainTime)
                return false
            }
            if await group.next() == false {
                let dropped = queue.abandon()
                logger.warning("work left undone at shutdown", metadata: ["queue": "\(queue.name)", "dropped": "\(dropped)"])
            }
            group.cancelAll()
        }
    }
}
