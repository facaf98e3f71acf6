import SwitchboardCore
import SwitchboardJSON

/// One device's push as Meizu's push API takes it (MEIZUPUSH/PushAPI: pushId 推送接口), from
/// LeanCloud's push data for Android (`AndroidPushContent`):
/// - anything not silent is a notification (`varnished/pushByPushId`): `noticeBarInfo` with the
///   title (up to 32 characters) and content (up to 100) as `AndroidPushContent.shown` has
///   them, and a tap that opens the app (`clickType` 0) or the
///   settings' `activity` (1) with the data in the `com.avoscloud.Data` extra (`parameters`
///   become the opened activity's extras). Meizu asks not to use `clickType` 3, the one that
///   hands the tap to the app's receiver, since Android 12;
/// - a silent push is a pass-through message (`unvarnished/pushByPushId`) whose `content` is
///   the data's JSON text, which LeanCloud's `LCFlymePushMessageReceiver` hands on as it is.
///   Meizu limits pass-through messages (`110053` once an app is over its limit);
/// - both are kept offline for what is left of LeanCloud's seven days, within Meizu's 1 to 72 hours.
enum MeizuMessage {
    enum Built: Equatable {
        case message(path: String, json: JSONValue)
        /// Not sendable, and why.
        case unsendable(String)
    }

    /// Meizu's limit on a pass-through message's content.
    static let maxPassThroughBytes = 2000

    static func build(payload: JSONValue, settings: MeizuSettings, sentAt: Int64, now: Int64) -> Built {
        let content = AndroidPushContent(payload: payload)
        let hours = (sentAt + PushNotice.lifetime - now + 3_599_999) / 3_600_000
        let time: JSONValue = ["offLine": 1, "validTime": .int(min(max(hours, 1), 72))]
        if content.isSilent {
            guard content.json.utf8.count <= maxPassThroughBytes else {
                return .unsendable("pass-through content over Meizu's \(maxPassThroughBytes) bytes")
            }
            return .message(path: "garcia/api/server/push/unvarnished/pushByPushId", json: ["content": .string(content.json), "pushTimeInfo": time])
        }
        guard let shown = content.shown(defaultTitle: settings.common.defaultTitle) else { return .unsendable("the push data has neither title nor alert") }
        var click: [String: JSONValue] = ["clickType": 0, "parameters": [AndroidPushContent.intentDataKey: .string(content.json)]]
        if let activity = settings.activity {
            click["clickType"] = 1
            click["activity"] = .string(activity)
        }
        let notice: JSONValue = ["title": .string(String(shown.title.prefix(32))), "content": .string(String(shown.text.prefix(100)))]
        return .message(
            path: "garcia/api/server/push/varnished/pushByPushId",
            json: ["noticeBarInfo": notice, "clickTypeInfo": .object(click), "pushTimeInfo": time]
        )
    }
}
