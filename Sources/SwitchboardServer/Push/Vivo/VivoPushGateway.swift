import Foundation
import Logging
import SwitchboardCore
import SwitchboardData
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
struct VivoPushGateway: VendorPushGateway {
    typealias Account = VendorTokenAccount<VivoSettings>

    let accounts: VendorPushAccounts<Account>

    init(accounts settings: [VivoSettings], store: any PushDeviceStore, queue: WorkQueue, metrics: HookMetrics, logger: Logger) throws {
        accounts = try VendorPushAccounts(
            service: "vivo", settings: Account.accounts(settings, makeToken: VivoAuth.token),
            store: store, queue: queue, metrics: metrics, logger: logger
        )
    }

    func push(_ notice: PushNotice) async {
        let content = AndroidPushContent(payload: notice.payload)
        await accounts.push(notice) { account, registrationID in
            guard !content.isSilent else { return .refused("vivo has no pass-through message for a silent push") }
            let body = VivoMessage.body(
                to: registrationID, content, messageID: notice.messageID, settings: account.settings,
                sentAt: notice.timestamp, now: SystemWallClock().now()
            )
            guard let body else { return .refused("the push data has neither title nor alert") }
            return await send(body, as: account)
        }
    }

    private func send(_ body: JSONValue, as account: Account) async -> DevicePushAnswer {
        await account.send { authToken in
            Self.answer(try await account.common.post("message/send", contentType: "application/json", headers: [("authToken", authToken)], body: body.jsonString))
        }
    }

    /// What vivo's answer means, by its `result`, and whether it refused the authToken.
    private static func answer(_ response: VendorAccountSettings.Answer) -> (answer: DevicePushAnswer, accessTokenRefused: Bool) {
        let answer = try? JSONValue(parsing: response.body)
        guard response.status == 200, let result = answer?["result"]?.int64Value else {
            return (.httpStatus(response.status, "HTTP \(response.status)"), false)
        }
        let reason = "\(result): \(answer?["desc"]?.stringValue ?? "")"
        switch result {
        case 0: return (.accepted, false)
        case 10302: return (.deadToken(reason), false)
        case 10070, 10073: return (.quotaExhausted(reason), false)
        case 10000: return (.later(reason), true)
        default: return (.refused(reason), false)
        }
    }
}
