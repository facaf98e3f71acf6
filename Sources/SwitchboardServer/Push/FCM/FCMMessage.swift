import SwitchboardCore
import SwitchboardJSON

/// One push as FCM's HTTP v1 API takes it (firebase.google.com/docs/reference/fcm/rest/v1/
/// projects.messages), built from LeanCloud's push data for Android: `title` and `alert` (text,
/// or an object with `title` and `body`) make the notification, none when `silent` is true (a
/// data message then); `sound` becomes `android.notification.sound`, a number `badge`
/// `android.notification.notification_count` (the count launchers that show one show), and
/// `collapse-id` `android.collapse_key`. Every key also goes into `data`, as text (FCM's data
/// values are strings), for the app's own handling, but for the delivery hints `priority` and
/// `collapse-id`, and a `badge` of `"Increment"`: counting up is APNs' (the store counts
/// badges by APNs token), and the literal text is nothing an app can show. Android priority
/// is high unless the data says `"priority": "normal"`, and the TTL is what is left of the
/// seven days.
enum FCMMessage {
    /// Keys FCM refuses in `data`.
    private static let reserved: Set<String> = ["from", "notification", "message_type"]

    /// FCM's limit on a message's data, keys and values together (its `ErrorCode` reference,
    /// "message too big": 4096 bytes for a message to a token).
    static let dataLimit = 4096

    /// - Parameters:
    ///   - sentAt: when the message was sent, in milliseconds; `now` likewise.
    static func body(token: String, payload: JSONValue, sentAt: Int64, now: Int64) -> JSONValue {
        var data = PlatformPushData.data(for: "android", in: payload)
        let priority = data.removeValue(forKey: "priority")?.stringValue == "normal" ? "normal" : "high"
        let collapseKey = data.removeValue(forKey: "collapse-id").map(text)
        if data["badge"]?.stringValue == "Increment" { data["badge"] = nil }
        let ttl = max(sentAt + PushNotice.lifetime - now, 0) / 1000
        var android: [String: JSONValue] = ["priority": .string(priority), "ttl": .string("\(ttl)s")]
        if let collapseKey { android["collapse_key"] = .string(collapseKey) }
        var message: [String: JSONValue] = ["token": .string(token)]
        if data["silent"]?.boolValue != true {
            var notification: [String: JSONValue] = [:]
            var title = data["title"], body = data["alert"]
            if case .object(let alert)? = body {
                title = title ?? alert["title"]
                body = alert["body"]
            }
            if let title { notification["title"] = .string(text(title)) }
            if let body { notification["body"] = .string(text(body)) }
            if !notification.isEmpty { message["notification"] = .object(notification) }
            var shown: [String: JSONValue] = [:]
            if let sound = data["sound"].map(text) { shown["sound"] = .string(sound) }
            if let count = data["badge"]?.int64Value ?? data["badge"]?.stringValue.flatMap({ Int64($0) }) { shown["notification_count"] = .int(count) }
            if !shown.isEmpty { android["notification"] = .object(shown) }
        }
        message["android"] = .object(android)
        let strings = data.filter { key, _ in !reserved.contains(key) && !key.hasPrefix("google") && !key.hasPrefix("gcm") }.mapValues { JSONValue.string(text($0)) }
        if !strings.isEmpty { message["data"] = .object(strings) }
        return ["message": .object(message)]
    }

    /// Whether the message's data, keys and values, is over `dataLimit`.
    static func isTooLarge(_ body: JSONValue) -> Bool {
        let data = body["message"]?["data"]?.objectValue ?? [:]
        return data.reduce(0) { size, entry in size + entry.key.utf8.count + (entry.value.stringValue?.utf8.count ?? 0) } > dataLimit
    }

    /// FCM's data values are strings: other JSON goes as its text.
    private static func text(_ value: JSONValue) -> String {
        value.stringValue ?? value.jsonString
    }
}
