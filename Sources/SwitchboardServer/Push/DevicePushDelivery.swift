import Logging
import Metrics
import SwitchboardCore
import SwitchboardData
import SwitchboardHooks

/// How a provider that pushes device by device (APNs, FCM, the Android makers' services)
/// queues, tries and counts: jobs wait in the bounded push queue and never hold up delivery;
/// a push the service answers 429 or 5xx is tried `attempts` times in all, after the wait
/// the service asked for (`Retry-After`) or else a doubling one, until seven days after its
/// message. A push waiting to be tried again holds no worker: it waits outside the queue
/// (`PushRetryWaits`) and goes back into it when its time comes. A used-up quota is not tried
/// again; a dead token is removed from the store; every device's outcome is counted once in
/// `switchboard_push_<service>_total{outcome}`. A push's age is read from the system's clock,
/// as the services that take it count it.
struct DevicePushDelivery: Sendable {
    /// What became of one device's push.
    enum Outcome: String, CaseIterable {
        case sent, removedToken = "removed_token", rejected, failed, otherTeam = "other_team", dropped, quotaExhausted = "quota_exhausted"
        /// Larger than the service takes (APNs' 4 KB, FCM's 4 KB of data): not sent.
        case tooLarge = "too_large"
    }

    /// For logs: `APNs`, `FCM`.
    let service: String
    let attempts: Int
    let firstRetry: Duration
    let store: any PushDeviceStore
    /// Bounded, dropping when full; run by a `WorkQueueService`.
    let queue: WorkQueue
    private let outcomes: [Outcome: Counter]
    let logger: Logger
    private let waits: PushRetryWaits

    /// - Parameter waitingRetries: how many pushes may wait to be tried again at once; a push
    ///   that would be one more is dropped.
    init(
        service: String, attempts: Int, firstRetry: Duration, store: any PushDeviceStore, queue: WorkQueue, metrics: HookMetrics, logger: Logger,
        waitingRetries: Int = 10_000
    ) {
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
        waits = PushRetryWaits(limit: waitingRetries)
    }

    /// Queues `job` for `devices` devices; counts them dropped when the queue is full.
    func submit(devices: Int, messageID: String, _ job: @escaping @Sendable () async -> Void) async {
        if !(await queue.submit(job)) {
            count(.dropped, devices)
            logger.warning("push dropped: the \(service) queue is full", metadata: ["message": "\(messageID)"])
        }
    }

    /// Sends one device's push with `post`, as often as it takes: this tries once, and a push
    /// to try again is queued anew after its wait, calling `post` again.
    func deliver(to token: String, messageID: String, sentAt: Int64, post: @escaping @Sendable () async -> DevicePushAnswer) async {
        await attempt(number: 1, backoff: firstRetry, token: token, messageID: messageID, sentAt: sentAt, post: post)
    }

    private func attempt(
        number: Int, backoff: Duration, token: String, messageID: String, sentAt: Int64, post: @escaping @Sendable () async -> DevicePushAnswer
    ) async {
        if SystemWallClock().now() - sentAt > PushNotice.lifetime {
            count(.dropped)
            return
        }
        switch await post() {
        case .accepted:
            count(.sent)
        case .deadToken(let reason):
            logger.info("\(service) device token removed", metadata: ["reason": "\(reason)", "message": "\(messageID)"])
            do { try await store.removeDevice(token: token) } catch {
                logger.error("removing a dead device token failed", metadata: ["error": "\(error)"])
            }
            // Once it is gone: a push after this count finds no such device.
            count(.removedToken)
        case .refused(let reason):
            count(.rejected)
            logger.warning("\(service) refused a push", metadata: ["reason": "\(reason)", "message": "\(messageID)"])
        case .quotaExhausted(let reason):
            count(.quotaExhausted)
            logger.warning("\(service) quota used up; push not sent", metadata: ["reason": "\(reason)", "message": "\(messageID)"])
        case .later(let reason, let retryAfter):
            let wait = retryAfter ?? backoff
            guard number < attempts else {
                count(.failed)
                logger.error("\(service) push given up", metadata: ["reason": "\(reason)", "attempts": "\(attempts)", "message": "\(messageID)"])
                return
            }
            guard .milliseconds(sentAt + PushNotice.lifetime - SystemWallClock().now()) > wait else {
                count(.dropped)
                logger.warning("\(service) push dropped: its wait outlasts the push", metadata: ["reason": "\(reason)", "message": "\(messageID)"])
                return
            }
            logger.warning(
                "\(service) push failed; trying again",
                metadata: ["reason": "\(reason)", "attempt": "\(number)", "wait": "\(wait)", "message": "\(messageID)"]
            )
            let waiting = waits.schedule(after: wait) {
                let queued = await queue.submit {
                    await attempt(number: number + 1, backoff: wait * 2, token: token, messageID: messageID, sentAt: sentAt, post: post)
                }
                if !queued {
                    count(.dropped)
                    logger.warning("push dropped: the \(service) queue is full or closed", metadata: ["message": "\(messageID)"])
                }
            } dropped: {
                count(.dropped)
            }
            if !waiting {
                count(.dropped)
                logger.warning("\(service) push dropped: \(waits.limit) pushes wait to be tried again already", metadata: ["message": "\(messageID)"])
            }
        }
    }

    func count(_ outcome: Outcome, _ devices: Int = 1) {
        outcomes[outcome]?.increment(by: Int64(devices))
    }
}
