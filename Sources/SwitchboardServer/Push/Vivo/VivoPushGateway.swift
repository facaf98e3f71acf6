import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import SwitchboardCore
import SwitchboardHooks
import SwitchboardJSON

/// The `vivo` push provider: sends the devices `PushRouter` hands it (installations with
/// `vendor` `vivo`, by registration id) a notification each through vivo Push's single
/// send, with the account their `deviceProfile` names; queued, tried again and counted by
/// `DevicePushDelivery` (`switchboard_push_vivo_total`).
///
/// Follows vivo's "PUSH-UPS-API接口文档" (dev.vivo.com.cn/documentCenter/doc/362, version
/// 2.9.2) and its message classification (doc/359): `authToken` as a header and the message
/// as JSON; answers by `result`: 0 sent; 10302 (regId not valid) forgets the device; 10070
/// (the day's sending total reached; vivo asks senders not to call again that day) is
/// counted `quota_exhausted`, and so is 10073 (the day's system-message total); 10000
/// (authentication failed) drops the authToken and tries again with a new one; HTTP 429 and
/// 5xx are tried again; the rest are refused. 10073 and 10000 are read as other senders of
/// vivo pushes read them: vivo's table of codes was not to be found. vivo's pass-through
/// message is deprecated, so a silent push is refused (LeanCloud dropped those too).
struct VivoPushGateway: PushGateway {
    /// An account's settings and its auth token.
    struct Account: VendorPushSettings {
        let settings: VivoSettings
        let authToken: PushAccessToken
        var profile: String? { settings.profile }
        var attempts: Int { settings.attempts }
        var firstRetry: Duration { settings.firstRetry }
    }

    let accounts: VendorPushAccounts<Account>

    init(accounts settings: [VivoSettings], store: any MessageStore, queue: WorkQueue, metrics: HookMetrics, logger: Logger) throws {
        accounts = try VendorPushAccounts(
            service: "vivo", settings: settings.map { Account(settings: $0, authToken: VivoAuth.token(for: $0)) },
            store: store, queue: queue, metrics: metrics, logger: logger
        )
    }

    func push(_ notice: PushNotice) async {
        let content = AndroidPushContent(payload: notice.payload)
        await accounts.push(notice) { account, registrationID in
            guard !content.isSilent else { return .refused("vivo has no pass-through message for a silent push") }
            let body = VivoMessage.body(
                to: registrationID, content, messageID: notice.messageID, settings: account.settings,
                sentAt: notice.timestamp, now: ServerClock.wallMilliseconds()
            )
            guard let body else { return .refused("the push data has neither title nor alert") }
            return await send(body, as: account)
        }
    }

    private func send(_ body: JSONValue, as account: Account) async -> DevicePushAnswer {
        let authToken: String
        do {
            authToken = try await account.authToken.token()
        } catch {
            return .later("no authToken: \(error)")
        }
        var request = HTTPClientRequest(url: account.settings.baseURL.appendingPathComponent("message/send").absoluteString)
        request.method = .POST
        request.headers.add(name: "authToken", value: authToken)
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: body.jsonString))
        do {
            let response = try await PushHTTPClients.client(trustRootsFile: account.settings.trustRootsFile).execute(request, timeout: .seconds(30))
            let answer = try? JSONValue(parsing: String(buffer: try await response.body.collect(upTo: 64 * 1024)))
            let status = Int(response.status.code)
            guard status == 200, let result = answer?["result"]?.int64Value else {
                return status == 429 || status >= 500 ? .later("HTTP \(status)") : .refused("HTTP \(status)")
            }
            let reason = "\(result): \(answer?["desc"]?.stringValue ?? "")"
            switch result {
            case 0: return .accepted
            case 10302: return .deadToken(reason)
            case 10070, 10073: return .quotaExhausted(reason)
            case 10000:
                await account.authToken.discard(authToken)
                return .later(reason)
            default: return .refused(reason)
            }
        } catch {
            return .later("\(error)")
        }
    }
}
