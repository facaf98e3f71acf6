import SwitchboardCore
import SwitchboardJSON

/// One push as OPPO's unicast takes it (`message`, "单点推送" and "通知栏消息" in OPPO's server
/// API): to a registration id (`target_type` 2), a notification with the title and text
/// `AndroidPushContent.shown` gives (OPPO takes 50 and 200 characters of them), the
/// app's channel, IM category and reminder level, kept offline for what is left of the seven
/// days (OPPO keeps one hour to ten days). The tap opens the app, or the configured activity,
/// with `AndroidPushContent.tapExtras` as the intent's extras (`action_parameters`, a JSON
/// object of at most 4000 characters: the extras that fit, in order).
enum OPPOMessage {
    static let titleLimit = 50
    static let contentLimit = 200
    static let actionParametersLimit = 4000

    /// Nil when the data has neither title nor alert: OPPO shows nothing without them.
    /// - Parameters:
    ///   - sentAt: when the message was sent, in milliseconds; `now` likewise.
    static func message(to registrationID: String, _ content: AndroidPushContent, settings: OPPOSettings, sentAt: Int64, now: Int64) -> JSONValue? {
        guard let shown = content.shown(defaultTitle: settings.common.defaultTitle) else { return nil }
        var notification: [String: JSONValue] = [
            "title": .string(String(shown.title.prefix(titleLimit))),
            "content": .string(String(shown.text.prefix(contentLimit))),
            "channel_id": .string(settings.channelID),
            "off_line": true,
            "off_line_ttl": .int(min(max((sentAt + PushNotice.lifetime - now) / 1000, 3600), 864_000)),
            "action_parameters": .string(actionParameters(content.tapExtras)),
        ]
        if let activity = settings.activity {
            notification["click_action_type"] = 4
            notification["click_action_activity"] = .string(activity)
        } else {
            notification["click_action_type"] = 0
        }
        if !settings.category.isEmpty {
            notification["category"] = .string(settings.category)
            // OPPO takes a reminder level only with a category.
            if settings.notifyLevel != 0 { notification["notify_level"] = .int(Int64(settings.notifyLevel)) }
        }
        return ["target_type": 2, "target_value": .string(registrationID), "notification": .object(notification)]
    }

    private static func actionParameters(_ extras: [(key: String, value: String)]) -> String {
        var parameters: [String: JSONValue] = [:]
        for (key, value) in extras {
            parameters[key] = .string(value)
            if JSONValue.object(parameters).jsonString.count > actionParametersLimit { parameters[key] = nil }
        }
        return JSONValue.object(parameters).jsonString
    }
}
