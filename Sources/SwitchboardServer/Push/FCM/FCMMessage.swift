import SwitchboardCore
import SwitchboardJSON

/// One push as FCM's HTTP v1 API takes it, built from LeanCloud's push data for Android:
/// `title` and `alert` make the notification (none when `silent` is true, a data message
/// then); every key also goes into `data`, as text, for the app's own handling; Android
/// priority is high unless the data says `"priority": "normal"`, and the TTL is what is left
/// of the seven days.
enum FCMMessage {
    /// Keys FCM refuses in `data`.
    private static let reserved: Set<String> = ["from", "notification", "message_type"]

    /// - Parameters:
    ///   - sentAt: when the message was sent, in milliseconds; `now` likewise.
    static func body(token: String, payload: JSONValue, sentAt: Int64, now: Int64) -> JSONValue {
        var data = PlatformPushData.data(for: "android", in: payload)
        let priority = data.removeValue(forKey: "priority")?.stringValue == "normal" ? "normal" : "high"
        let ttl = max(sentAt + PushNotice.lifetime - now, 0) / 1000
        var message: [String: JSONValue] = [
            "token": .string(token),
            "android": ["priority": .string(priority), "ttl": .string("\(ttl)s")],
        ]
        if data["silent"]?.boolValue != true {
            var notification: [String: JSONValue] = [:]
            if let title = data["title"].map(text) { notification["title"] = .string(title) }
            if let alert = data["alert"].map(text) { notification["body"] = .string(alert) }
            if !notification.isEmpty { message["notification"] = .object(notification) }
        }
        let strings = data.filter { key, _ in !reserved.contains(key) && !key.hasPrefix("google") && !key.hasPrefix("gcm") }.mapValues { JSONValue.string(text($0)) }
        if !strings.isEmpty { message["data"] = .object(strings) }
        return ["message": .object(message)]
    }

    /// FCM's data values are strings: other JSON goes as its text.
    private static func text(_ value: JSONValue) -> String {
        value.stringValue ?? value.jsonString
    }
}
