import SwitchboardCore
import SwitchboardJSON

/// One device's push as MiPush's server API takes it (`POST /v3/message/regid`, a form),
/// from LeanCloud's push data for Android (`AndroidPushContent`):
/// - `payload` is the data as JSON text: LeanCloud's `LCMiPushMessageReceiver` parses the
///   message's content on arrival and on a pass-through message;
/// - a silent push is a pass-through message (`pass_through` 1), anything else a notification
///   (`pass_through` 0) with `title` (under 50 characters) and `description` (under 128), as
///   `AndroidPushContent.shown` has them, all of sound, vibration and
///   light (`notify_type` -1), the account's `extra.channel_id`, and a predefined tap action
///   (Xiaomi retired taps left to the app in 2024): the app's launcher activity
///   (`extra.notify_effect` 1), or the settings' `activity` (2) through an `extra.intent_uri`
///   that carries the data in the `com.avoscloud.Data` extra LeanCloud's SDK reads;
/// - `notify_id` is the conversation's, so each conversation shows its newest notification
///   (Xiaomi shows one notification per id, and one in all without ids);
/// - `time_to_live` is what is left of LeanCloud's seven days, in milliseconds.
enum XiaomiMessage {
    /// The form's fields; nil when the data has nothing to show and is not silent.
    static func fields(
        token: String, payload: JSONValue, conversationID: String, settings: XiaomiSettings, sentAt: Int64, now: Int64
    ) -> [(name: String, value: String)]? {
        let content = AndroidPushContent(payload: payload)
        var fields: [(name: String, value: String)] = [
            ("registration_id", token), ("restricted_package_name", settings.packageName), ("payload", content.json),
            ("pass_through", content.isSilent ? "1" : "0"), ("time_to_live", String(max(sentAt + PushNotice.lifetime - now, 0))),
        ]
        if content.isSilent { return fields }
        guard let shown = content.shown(defaultTitle: settings.common.defaultTitle) else { return nil }
        fields += [
            ("title", String(shown.title.prefix(49))), ("description", String(shown.text.prefix(127))), ("notify_type", "-1"),
            ("notify_id", String(notifyID(conversationID))),
        ]
        if let activity = settings.activity {
            let intent = "intent:#Intent;component=\(settings.packageName)/\(activity);S.\(AndroidPushContent.intentDataKey)=\(FormURLEncoded.escaped(content.json));end"
            fields += [("extra.notify_effect", "2"), ("extra.intent_uri", intent)]
        } else {
            fields.append(("extra.notify_effect", "1"))
        }
        if let channelID = settings.channelID { fields.append(("extra.channel_id", channelID)) }
        return fields
    }

    /// A stable number for a conversation (FNV-1a, 31 bits: Xiaomi's `notify_id` is an int).
    static func notifyID(_ conversationID: String) -> Int {
        let hash = conversationID.utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 }
        return Int(hash & 0x7FFF_FFFF)
    }
}
