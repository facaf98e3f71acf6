import Logging
import SwitchboardCore
import SwitchboardData
import SwitchboardHooks
import SwitchboardJSON

/// The `honor` push provider: sends the Android devices `PushRouter` hands it (installations
/// with `vendor` `honor`, by registration id) a push each through Honor Push's server API,
/// with the account their `deviceProfile` picks; queued, tried again and counted by
/// `DevicePushDelivery` (`switchboard_push_honor_total`). Answers are read as Huawei Push
/// Kit's result codes (`PushKitAnswer`), with Honor's `200` for success.
///
/// Follows Honor's developer guide "荣耀推送服务 - 发送下行消息" (send downlink messages) and its
/// "下行消息" reference (https://developer.honor.com/cn/docs/11002/reference/downlink-message): an access
/// token by OAuth client credentials from `iam.developer.honor.com`, sent as
/// `Authorization: Bearer` with a `timestamp` header (milliseconds) to
/// `push-api.cloud.honor.com/api/v1/{APPID}/sendMessage`. Honor's table of result codes was
/// not at hand; the codes acted on are Push Kit's, which Honor's service grew out of.
struct HonorPushGateway: VendorPushGateway {
    let accounts: VendorPushAccounts<VendorTokenAccount<HonorSettings>>

    init(accounts settings: [HonorSettings], store: any PushDeviceStore, queue: WorkQueue, metrics: HookMetrics, logger: Logger) throws {
        accounts = try VendorPushAccounts(
            service: "Honor", settings: VendorTokenAccount.oauthAccounts(settings, service: "Honor"), store: store, queue: queue, metrics: metrics, logger: logger
        )
    }

    func push(_ notice: PushNotice) async {
        await accounts.push(notice) { account, token in
            guard let message = HonorMessage.body(token: token, payload: notice.payload, settings: account.settings) else {
                return .refused("the push data has neither title nor alert")
            }
            // Honor answers success with the number 200; its other codes are Push Kit's.
            return await PushKitSend.post(
                message, to: "api/v1/\(account.settings.appID)/sendMessage", headers: { [("timestamp", String(SystemWallClock().now()))] },
                as: account, messageKey: "message", successCode: "200"
            )
        }
    }
}
