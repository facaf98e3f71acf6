import Foundation
import Logging
import SwitchboardCore
import SwitchboardData
import SwitchboardHooks
import SwitchboardJSON

/// The `meizu` push provider: sends the Android devices `PushRouter` hands it (installations
/// with `vendor` `mz`, by pushId) a push each through Meizu's Flyme push API, with the account
/// the device's `deviceProfile` picks; queued, tried again and counted by `DevicePushDelivery`
/// (`switchboard_push_meizu_total`).
///
/// Follows Meizu's HTTP API documentation, github.com/MEIZUPUSH/PushAPI (魅族开放平台PUSH系统
/// HTTP接口文档): form-encoded `appId`, `pushIds`, `messageJson` and `sign` (`MeizuSignature`)
/// to `varnished/pushByPushId` (notifications) or `unvarnished/pushByPushId` (pass-through).
/// Each request is signed with the AppSecret: Meizu has no access tokens to fetch or renew.
struct MeizuPushGateway: VendorPushGateway {
    let accounts: VendorPushAccounts<MeizuSettings>

    init(accounts settings: [MeizuSettings], store: any PushDeviceStore, queue: WorkQueue, metrics: HookMetrics, logger: Logger) throws {
        accounts = try VendorPushAccounts(service: "Meizu", settings: settings, store: store, queue: queue, metrics: metrics, logger: logger)
    }

    func push(_ notice: PushNotice) async {
        await accounts.push(notice) { settings, token in
            switch MeizuMessage.build(payload: notice.payload, settings: settings, sentAt: notice.timestamp, now: SystemWallClock().now()) {
            case .unsendable(let reason): return .refused(reason)
            case .message(let path, let json): return await Self.post(json, to: path, as: settings, token: token)
            }
        }
    }

    private static func post(_ message: JSONValue, to path: String, as settings: MeizuSettings, token: String) async -> DevicePushAnswer {
        var fields: [(name: String, value: String)] = [("appId", settings.appID), ("pushIds", token), ("messageJson", message.jsonString)]
        fields.append(("sign", MeizuSignature.sign(fields, secret: settings.appSecret)))
        do {
            let answer = try await settings.common.post(path, contentType: "application/x-www-form-urlencoded;charset=UTF-8", body: FormURLEncoded.body(fields))
            return MeizuAnswer.answer(status: answer.status, body: answer.body, token: token)
        } catch {
            return .later("\(error)")
        }
    }
}
