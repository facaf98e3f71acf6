import Logging
import SwitchboardCore
import SwitchboardData
import SwitchboardHooks
import SwitchboardJSON

/// The `huawei` push provider: sends the Android devices `PushRouter` hands it (installations
/// with `vendor` `HMS`, by registration id) a push each through Huawei Push Kit's server API,
/// with the account their `deviceProfile` picks; queued, tried again and counted by
/// `DevicePushDelivery` (`switchboard_push_huawei_total`). Result code 80300007 removes the
/// token; 80200001 and 80200003 (and HTTP 401) drop the access token so the next try fetches
/// another; flow control (503: the app's pushes per second over its quota) and internal
/// errors are tried again, after `Retry-After` when given. Huawei's daily limits (2 or 5
/// marketing notifications a device a day, all a notification without the IM
/// self-classification right is counted as; 3,000 messages in all) are not answered at the
/// send: they reach the app's receipt server (statuses 256 and 102), so no push here is
/// counted `quota_exhausted`.
///
/// Follows Huawei's documentation (HMS Core, Push Kit, Android): "Sending Downlink Messages"
/// (https://developer.huawei.com/consumer/en/doc/HMSCore-References/https-send-api-0000001050986197),
/// its "Result Codes", OAuth 2.0 client credentials ("基于OAuth 2.0开放鉴权 - 客户端模式",
/// https://developer.huawei.com/consumer/cn/doc/HMSCore-Guides/oauth2-0000001212610981), and the
/// message classification rules ("消息分类标准",
/// https://developer.huawei.com/consumer/cn/doc/HMSCore-Guides/message-classification-0000001149358835)
/// and message frequency control ("消息频控", Push Kit's API reference);
/// LeanCloud's side from its Android mixed-push guide and java-unified-sdk's `mixpush-hms`.
struct HuaweiPushGateway: VendorPushGateway {
    let accounts: VendorPushAccounts<VendorTokenAccount<HuaweiSettings>>

    init(accounts settings: [HuaweiSettings], store: any PushDeviceStore, queue: WorkQueue, metrics: HookMetrics, logger: Logger) throws {
        accounts = try VendorPushAccounts(
            service: "Huawei", settings: VendorTokenAccount.oauthAccounts(settings, service: "Huawei"), store: store, queue: queue, metrics: metrics, logger: logger
        )
    }

    func push(_ notice: PushNotice) async {
        await accounts.push(notice) { account, token in
            let message = HuaweiMessage.body(
                token: token, payload: notice.payload, settings: account.settings, sentAt: notice.timestamp, now: SystemWallClock().now()
            )
            guard let message else { return .refused("the push data has neither title nor alert") }
            return await PushKitSend.post(message, to: "v1/\(account.settings.appID)/messages:send", as: account, messageKey: "msg")
        }
    }
}
