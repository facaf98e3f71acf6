import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SwitchboardCore
import SwitchboardData

/// The `webhook` push provider: POSTs each push as JSON to the operator's push gateway,
/// trying again with doubling waits when it fails. Pushes wait in a queue of their own, so a
/// gateway that is slow or down holds up neither delivery nor the other background work;
/// when that queue is full a push is dropped (counted). A push older than seven days is
/// dropped instead of sent.
struct WebhookPushGateway: PushGateway {
    let url: URL
    let attempts: Int
    let firstRetry: Duration
    /// Bounded, dropping when full; run by a `WorkQueueService`.
    let queue: WorkQueue
    let logger: Logger

    func push(_ notice: PushNotice) async {
        let queued = await queue.submit { await deliver(notice) }
        if !queued {
            logger.warning("push dropped: the webhook queue is full", metadata: ["message": "\(notice.messageID)"])
        }
    }

    private func deliver(_ notice: PushNotice) async {
        var wait = firstRetry
        for attempt in 1...max(attempts, 1) {
            if notice.isExpired(at: SystemWallClock().now()) {
                logger.warning("push dropped: older than seven days", metadata: ["message": "\(notice.messageID)"])
                return
            }
            let failure = await post(notice)
            guard let failure else { return }
            logger.warning("push gateway refused a push", metadata: [
                "url": "\(url)", "attempt": "\(attempt)", "error": "\(failure)", "message": "\(notice.messageID)",
            ])
            guard attempt < attempts else { break }
            do { try await Task.sleep(for: wait) } catch { break }
            wait *= 2
        }
        logger.error("push given up", metadata: ["url": "\(url)", "attempts": "\(attempts)", "message": "\(notice.messageID)"])
    }

    /// Nil when the gateway accepted the push (any 2xx), else why not.
    private func post(_ notice: PushNotice) async -> String? {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(notice.json.jsonString.utf8)
        request.timeoutInterval = 10
        do {
            let (_, response) = try await URLSession.shared.data(for: request)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            return (200..<300).contains(status) ? nil : "HTTP \(status)"
        } catch {
            return "\(error)"
        }
    }
}
