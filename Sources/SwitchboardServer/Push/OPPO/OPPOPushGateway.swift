import Foundation
import Logging
import SwitchboardCore
import SwitchboardData
import SwitchboardHooks
import SwitchboardJSON

/// The `oppo` push provider: sends the devices `PushRouter` hands it (installations with
/// `vendor` `oppo`, by registration id) a notification each through OPPO Push's unicast,
/// with the account their `deviceProfile` names; queued, tried again and counted by
/// `DevicePushDelivery` (`switchboard_push_oppo_total`).
///
/// Follows OPPO's server API on open.oppomobile.com/new/developmentDoc: "调用地址，公共参数和
/// 返回码" (auth_token in the request body; the common codes), "鉴权" (info?id=11234), "通知栏
/// 消息" (id=11236), "单点推送" (id=11238) and "新消息分类" (id=13189): `auth_token` and
/// `message` as form fields; answers by `code`: 0 sent; 11 (invalid auth_token) drops the token and tries again
/// with a new one; 10000 (invalid registration_id) forgets the device; 33 (the day's message
/// quota) is counted `quota_exhausted`; -2 and 55 (flow control), 13 (call limit) and -1
/// (unavailable) are tried again; the rest are refused. OPPO has no pass-through message for
/// apps, so a silent push is refused (LeanCloud dropped those too).
struct OPPOPushGateway: VendorPushGateway {
    typealias Account = VendorTokenAccount<OPPOSettings>

    let accounts: VendorPushAccounts<Account>

    init(accounts settings: [OPPOSettings], store: any PushDeviceStore, queue: WorkQueue, metrics: HookMetrics, logger: Logger) throws {
        accounts = try VendorPushAccounts(
            service: "OPPO", settings: Account.accounts(settings, makeToken: OPPOAuth.token),
            store: store, queue: queue, metrics: metrics, logger: logger
        )
    }

    func push(_ notice: PushNotice) async {
        let content = AndroidPushContent(payload: notice.payload)
        await accounts.push(notice) { account, registrationID in
            guard !content.isSilent else { return .refused("OPPO has no pass-through message for a silent push") }
            let message = OPPOMessage.message(
                to: registrationID, content, settings: account.settings, sentAt: notice.timestamp, now: SystemWallClock().now()
            )
            guard let message else { return .refused("the push data has neither title nor alert") }
            return await send(message, as: account)
        }
    }

    private func send(_ message: JSONValue, as account: Account) async -> DevicePushAnswer {
        await account.send { authToken in
            let response = try await account.common.post(
                "server/v1/message/notification/unicast", contentType: "application/x-www-form-urlencoded",
                body: FormURLEncoded.body([("auth_token", authToken), ("message", message.jsonString)])
            )
            return Self.answer(response)
        }
    }

    /// What OPPO's answer means, by its `code`, and whether it refused the auth_token.
    private static func answer(_ response: VendorAccountSettings.Answer) -> (answer: DevicePushAnswer, accessTokenRefused: Bool) {
        let answer = try? JSONValue(parsing: response.body)
        guard response.status == 200, let code = answer?["code"]?.int64Value else {
            return (.httpStatus(response.status, "HTTP \(response.status)"), false)
        }
        let reason = "\(code): \(answer?["message"]?.stringValue ?? "")"
        switch code {
        case 0: return (.accepted, false)
        case 10000: return (.deadToken(reason), false)
        case 11: return (.later(reason), true)
        case 33: return (.quotaExhausted(reason), false)
        case -2, -1, 13, 55: return (.later(reason), false)
        default: return (.refused(reason), false)
        }
    }
}
