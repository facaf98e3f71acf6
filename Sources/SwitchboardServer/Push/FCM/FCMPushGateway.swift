import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import SwitchboardCore
import SwitchboardData
import SwitchboardHooks
import SwitchboardJSON

/// The `fcm` push provider: sends the Android devices `PushRouter` hands it (installations
/// with `vendor` `fcm`, by registration id) a push each through FCM's HTTP v1 API; queued,
/// tried again and counted by `DevicePushDelivery` (`switchboard_push_fcm_total`). Follows
/// FCM's `ErrorCode` reference (firebase.google.com/docs/reference/fcm/rest/v1/ErrorCode):
/// `UNREGISTERED`, and `INVALID_ARGUMENT` about the registration token, remove the token; a
/// 401 drops the access token so the next try fetches a new one; 429, 500 and 503 are tried
/// again after their `Retry-After` when they give one, else with backoff; a message whose
/// data is over FCM's 4 KB is not sent (`too_large`).
struct FCMPushGateway: PushGateway {
    let settings: FCMSettings
    let account: FCMServiceAccount
    let accessToken: PushAccessToken
    let delivery: DevicePushDelivery

    init(settings: FCMSettings, store: any PushDeviceStore, queue: WorkQueue, metrics: HookMetrics, logger: Logger) throws {
        self.settings = settings
        account = try FCMServiceAccount(file: settings.serviceAccountFile)
        accessToken = try FCMTokenGrant(account: account, client: PushHTTPClients.client(trustRootsFile: settings.trustRootsFile)).accessToken()
        delivery = DevicePushDelivery(
            service: "FCM", attempts: settings.attempts, firstRetry: settings.firstRetry, store: store, queue: queue, metrics: metrics, logger: logger
        )
    }

    func push(_ notice: PushNotice) async {
        let tokens = notice.devices.values.flatMap { $0.map(\.token) }
        guard !tokens.isEmpty else { return }
        // The data is the same for every device: checked once.
        if let token = tokens.first, FCMMessage.isTooLarge(FCMMessage.body(token: token, payload: notice.payload, sentAt: notice.timestamp, now: notice.timestamp)) {
            delivery.count(.tooLarge, tokens.count)
            delivery.logger.warning("FCM push not sent: its data is larger than FCM takes", metadata: ["devices": "\(tokens.count)", "message": "\(notice.messageID)"])
            return
        }
        await delivery.submit(devices: tokens.count, messageID: notice.messageID) {
            await withTaskGroup(of: Void.self) { group in
                for token in tokens {
                    group.addTask {
                        await delivery.deliver(to: token, messageID: notice.messageID, sentAt: notice.timestamp) {
                            await post(FCMMessage.body(token: token, payload: notice.payload, sentAt: notice.timestamp, now: SystemWallClock().now()))
                        }
                    }
                }
            }
        }
    }

    private var sendURL: String {
        settings.sendURL.appendingPathComponent("v1/projects/\(account.projectID)/messages:send").absoluteString
    }

    private func post(_ message: JSONValue) async -> DevicePushAnswer {
        let bearer: String
        do {
            bearer = try await accessToken.token()
        } catch {
            return .later("no access token: \(error)")
        }
        var request = HTTPClientRequest(url: sendURL)
        request.method = .POST
        request.headers.add(name: "authorization", value: "Bearer \(bearer)")
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: message.jsonString))
        do {
            let response = try await PushHTTPClients.client(trustRootsFile: settings.trustRootsFile).execute(request, timeout: .seconds(30))
            let body = try? JSONValue(parsing: String(buffer: try await response.body.collect(upTo: 64 * 1024)))
            let status = Int(response.status.code)
            if status == 200 { return .accepted }
            let error = Self.describe(body?["error"], status: status)
            switch (status, error.code) {
            case (_, "UNREGISTERED"):
                return .deadToken(error.text)
            case (_, "INVALID_ARGUMENT") where error.text.contains("registration token"):
                return .deadToken(error.text)
            case (401, _):
                await accessToken.discard(bearer)
                return .later(error.text)
            case (429, _), (500..., _):
                return .later(error.text, retryAfter: RetryAfterHeader.duration(response.headers.first(name: "retry-after")))
            default:
                return .refused(error.text)
            }
        } catch {
            return .later("\(error)")
        }
    }

    /// FCM's error code (the `FcmError` detail's, else the status) and a line for the log.
    private static func describe(_ error: JSONValue?, status: Int) -> (code: String, text: String) {
        let detail = error?["details"]?.arrayValue?.lazy.compactMap { $0["errorCode"]?.stringValue }.first
        let code = detail ?? error?["status"]?.stringValue ?? "HTTP \(status)"
        return (code, "\(code): \(error?["message"]?.stringValue ?? "HTTP \(status)")")
    }
}
