import SwitchboardJSON

/// One push as Honor Push's downlink message API takes it (`token` and `android`, or `data`
/// for a pass-through message; camel-case names), from LeanCloud's push data for Android
/// (`AndroidPushContent`): what it shows makes an `android.notification` of the account's
/// `importance` (`NORMAL`, service and communication, for chat) whose tap opens the app, or
/// its activity with the push's own keys when the account names LeanCloud's intent host, with
/// the icon's badge when the account names the app's launcher activity; a silent push is a
/// pass-through message, the data as JSON text, which LeanCloud's Honor receiver hands to its
/// notification manager.
enum HonorMessage {
    /// Nil when the data has nothing to show and is not silent.
    static func body(token: String, payload: JSONValue, settings: HonorSettings) -> JSONValue? {
        let content = AndroidPushContent(payload: payload)
        if content.isSilent { return ["token": .strings([token]), "data": .string(content.json)] }
        guard let shown = content.shown(defaultTitle: settings.common.defaultTitle) else { return nil }
        // Type 1 opens the activity an intent names, type 3 the app.
        let clickAction: JSONValue = if let host = settings.intentHost {
            ["type": 1, "intent": .string(MixPushIntent.uri(host: host, content: content))]
        } else {
            ["type": 3]
        }
        var notification: [String: JSONValue] = ["title": .string(shown.title), "body": .string(shown.text), "clickAction": clickAction]
        if let importance = settings.importance { notification["importance"] = .string(importance) }
        if let badgeClass = settings.badgeClass, let badge = content.badge {
            let number: (String, JSONValue) = switch badge {
            case .increment: ("addNum", 1)
            case .set(let count): ("setNum", .int(count))
            }
            notification["badge"] = .object(["badgeClass": .string(badgeClass), number.0: number.1])
        }
        return ["token": .strings([token]), "android": ["notification": .object(notification)]]
    }
}
