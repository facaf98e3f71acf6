import SwitchboardCore
import SwitchboardJSON

/// One push as Huawei Push Kit's downlink message API takes it (`validate_only` and a
/// `message` for one token), from LeanCloud's push data for Android (`AndroidPushContent`):
/// what it shows makes an `android.notification` whose tap opens the app's activity with the
/// push's own keys (the intent LeanCloud's cloud sent, `MixPushIntent`), classified
/// `android.category` (`IM`), with the icon's badge when the account names the app's
/// launcher activity; a silent push is a data (pass-through) message, the data as JSON text,
/// which LeanCloud's HMS receiver hands to its notification manager. The TTL is what is left
/// of the seven days.
enum HuaweiMessage {
    /// Nil when the data has nothing to show and is not silent.
    /// - Parameters:
    ///   - sentAt: when the message was sent, in milliseconds; `now` likewise.
    static func body(token: String, payload: JSONValue, settings: HuaweiSettings, sentAt: Int64, now: Int64) -> JSONValue? {
        let content = AndroidPushContent(payload: payload)
        let ttl = max(sentAt + PushNotice.lifetime - now, 0) / 1000
        var android: [String: JSONValue] = ["ttl": .string("\(ttl)s")]
        var message: [String: JSONValue] = ["token": .strings([token])]
        if content.isSilent {
            message["data"] = .string(content.json)
        } else {
            guard let shown = content.shown(defaultTitle: settings.common.defaultTitle) else { return nil }
            var notification: [String: JSONValue] = [
                "title": .string(shown.title), "body": .string(shown.text),
                "click_action": ["type": 1, "intent": .string(MixPushIntent.uri(host: settings.intentHost, content: content))],
            ]
            if let badgeClass = settings.badgeClass, let badge = content.badge {
                let number: (String, JSONValue) = switch badge {
                case .increment: ("add_num", 1)
                case .set(let count): ("set_num", .int(count))
                }
                notification["badge"] = .object(["class": .string(badgeClass), number.0: number.1])
            }
            android["notification"] = .object(notification)
            if let category = settings.category { android["category"] = .string(category) }
        }
        message["android"] = .object(android)
        return ["validate_only": false, "message": .object(message)]
    }
}
