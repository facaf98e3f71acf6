import Foundation
import Logging
import SwitchboardCore
import SwitchboardData
import SwitchboardHooks

/// The `xiaomi` push provider: sends the Android devices `PushRouter` hands it (installations
/// with `vendor` `mi`, by registration id) a push each through MiPush's server API, with the
/// account the device's `deviceProfile` picks; queued, tried again and counted by
/// `DevicePushDelivery` (`switchboard_push_xiaomi_total`).
///
/// Follows Xiaomi's documentation on dev.mi.com: 服务器API地址以及参数 (Server API Address and
/// Parameters: `POST /v3/message/regid`, `Authorization: key=<AppSecret>`, the form's fields,
/// the regional endpoints), 服务端错误码参考 (the error codes), 推送消息限制说明 (the daily
/// quota's 200001) and 推送自定义通知消息下线的通知 (predefined tap actions only).
/// The AppSecret is sent as it is: MiPush has no access tokens to fetch or renew.
struct XiaomiPushGateway: VendorPushGateway {
    let accounts: VendorPushAccounts<XiaomiSettings>

    init(accounts settings: [XiaomiSettings], store: any PushDeviceStore, queue: WorkQueue, metrics: HookMetrics, logger: Logger) throws {
        accounts = try VendorPushAccounts(service: "Xiaomi", settings: settings, store: store, queue: queue, metrics: metrics, logger: logger)
    }

    func push(_ notice: PushNotice) async {
        await accounts.push(notice) { settings, token in
            let fields = XiaomiMessage.fields(
                token: token, payload: notice.payload, conversationID: notice.conversationID, settings: settings,
                sentAt: notice.timestamp, now: SystemWallClock().now()
            )
            guard let fields else { return .refused("the push data has neither title nor alert") }
            return await Self.post(fields, as: settings, token: token)
        }
    }

    private static func post(_ fields: [(name: String, value: String)], as settings: XiaomiSettings, token: String) async -> DevicePushAnswer {
        do {
            let answer = try await settings.common.post(
                "v3/message/regid", contentType: "application/x-www-form-urlencoded;charset=UTF-8", headers: [("authorization", "key=\(settings.appSecret)")],
                body: FormURLEncoded.body(fields)
            )
            return XiaomiAnswer.answer(status: answer.status, body: answer.body, token: token)
        } catch {
            return .later("\(error)")
        }
    }
}
