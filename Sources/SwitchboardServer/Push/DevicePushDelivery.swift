import Logging
import Prometheus
import SwitchboardCore
import SwitchboardHooks

/// How a provider that pushes device by device (APNs, FCM) queues, tries and counts: jobs
/// wait in the bounded push queue and never hold up delivery; a push the service answers
/// 429 or 5xx is tried again with doubling waits (from the `Retry-After` the service gave, when
/// it gave one), until seven days after its message; a used-up quota is not tried again; a dead
/// token is removed from the store; every device's outcome is counted in
/// `switchboard_push_<service>_total{outcome}`.
struct DevicePushDelivery: Sendable {
    /// What became of one device's push.
    enum Outcome: String, CaseIterable {
        case sent, removedToken = "removed_token", rejected, failed, otherTeam = "other_team", dropped, quotaExhausted = "quota_exhausted"
    }

    /// For logs: `APNs`, `FCM`.
    let service: String
    let attempts: Int
    let firstRetry: Duration
    let store: any MessageStore
    /// Bounded, dropping when full; run by a `WorkQueueService`.
    let queue: WorkQueue
    private let outcomes: [Outcome: Counter]
    let logger: Logger

    init(service: String, attempts: Int, firstRetry: Duration, store: any MessageStore, queue: WorkQueue, metrics: HookMetrics, logger: Logger) {
        self.service = service
        self.attempts = max(attempts, 1)
        self.firstRetry = firstRetry
        self.store = store
        self.queue = queue
        outcomes = Dictionary(uniqueKeysWithValues: Outcome.allCases.map { outcome in
            (outcome, metrics.makeCounter(
                subsystem: "push", name: service.lowercased(), help: "\(service) pushes by what became of them, one per device.",
                labels: [("outcome", outcome.rawValue)]
            ))
        })
        self.logger = logger
    }

    /// Queues `job` for `devices` devices; counts them dropped when the queue is full.
    func submit(devices: Int, messageID: String, _ job: @escaping @Sendable () async -> Void) async {
        if !(await queue.submit(job)) {
            count(.dropped, devices)
            logger.warning("push dropped: the \(service) queue is full", metadata: ["message": "\(messageID)"])
        }
    }

    /// Sends one device's push with `post`, as often as it takes.
    func deliver(to token: String, messageID: String, sentAt: Int64, post: () async -> DevicePushAnswer) async {
        var wait = firstRetry
        for attempt in 1...attempts {
            if ServerClock.wallMilliseconds() - sentAt > PushNotice.lifetime {
                count(.dropped)
                return
            }
            switch await post() {
            case .accepted:
                count(.sent)
                return
            case .deadToken(let reason):
                logger.info("\(service) device token removed", metadata: ["reason": "\(reason)", "message": "\(messageID)"])
                do { try await store.removeDevice(token: token) } catch {
                    logger.error("removing a dead device token failed", metadata: ["error": "\(error)"])
                }
                // Once it is gone: a push after this count finds no such device.
                count(.removedToken)
                return
            case .refused(let reason):
                count(.rejected)
                logger.warning("\(service) refused a push", metadata: ["reason": "\(reason)", "message": "\(messageID)"])
                return
            case .quotaExhausted(let reason):
                count(.quotaExhausted)
                logger.warning("\(service) quota used up; push not sent", metadata: ["reason": "\(reason)", "message": "\(messageID)"])
                return
            case .later(let reason, let retryAfter):
                logger.warning("\(service) push failed; trying again", metadata: ["reason": "\(reason)", "attempt": "\(attempt)", "message": "\(messageID)"])
                if let retryAfter { wait = retryAfter }
            }
            guard attempt < attempts else { break }
            do { try await Task.sleep(for: wait) } catch { break }
            wait *= 2
        }
        count(.failed)
        logger.error("\(service) push given up", metadata: ["attempts": "\(attempts)", "message": "\(messageID)"])
    }

    func count(_ outcome: Outcome, _ devices: Int = 1) {
        outcomes[outcome]?.increment(by: Int64(devices))
    }
}
