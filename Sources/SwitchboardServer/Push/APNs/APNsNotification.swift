import SwitchboardCore
import SwitchboardJSON

/// One push as APNs takes it, built from LeanCloud's push data: `alert`, `title`, `badge`,
/// `sound`, `category`, `thread-id`, `content-available` and `mutable-content` go into
/// `aps`; `collapse-id`, `apns-priority` and `apns-push-type` become headers; other keys
/// stay beside `aps` for the app. An `ios` object replaces the data for iOS, and data that
/// has its own `aps` is sent as it is. Keys for other platforms are left out.
struct APNsNotification: Equatable {
    var pushType: String
    var priority: Int
    /// Seconds since 1970 after which APNs stops trying: LeanCloud's seven days.
    var expiration: Int64
    var collapseID: String?
    let body: JSONValue
    /// `body` as sent.
    let encodedBody: [UInt8]

    /// The largest payload APNs takes (Apple's "Generating a remote notification"): 4 KB,
    /// 5 KB for a VoIP push. A larger one is refused on every device, so it is not sent.
    var isTooLarge: Bool {
        encodedBody.count > (pushType == "voip" ? 5120 : 4096)
    }

    private static let apsKeys: Set<String> = ["alert", "badge", "sound", "category", "thread-id", "content-available", "mutable-content"]

    /// - Parameters:
    ///   - sentAt: when the message was sent, in milliseconds.
    ///   - badge: the device's count with this push, for a `badge` of `"Increment"`.
    init(payload: JSONValue, sentAt: Int64, badge: Int) {
        var data = Self.iOSData(payload)
        let collapseID = data.removeValue(forKey: "collapse-id")?.stringValue
        let explicitType = data.removeValue(forKey: "apns-push-type")?.stringValue
        let explicitPriority = data.removeValue(forKey: "apns-priority")?.int64Value
        var aps: [String: JSONValue]
        if case .object(let given)? = data["aps"] {
            aps = given
        } else {
            aps = data.filter { Self.apsKeys.contains($0.key) }
            data = data.filter { !Self.apsKeys.contains($0.key) && $0.key != "title" }
            if let title = Self.iOSData(payload)["title"] {
                aps["alert"] = switch aps["alert"] {
                case .object(let alert)?: .object(alert.merging(["title": title]) { given, _ in given })
                case let body?: .object(["title": title, "body": body])
                case nil: .object(["title": title])
                }
            }
        }
        if aps["badge"]?.stringValue == "Increment" { aps["badge"] = .int(Int64(badge)) }
        data["aps"] = .object(aps)

        let background = aps["content-available"]?.int64Value == 1 && aps["alert"] == nil && aps["badge"] == nil && aps["sound"] == nil
        pushType = explicitType ?? (background ? "background" : "alert")
        priority = explicitPriority.map(Int.init) ?? (pushType == "background" ? 5 : 10)
        expiration = (sentAt + PushNotice.lifetime) / 1000
        self.collapseID = collapseID
        body = .object(data)
        encodedBody = Array(body.jsonString.utf8)
    }

    /// Whether the data asks for the badge to count up, so that each device's count is kept.
    static func incrementsBadge(_ payload: JSONValue) -> Bool {
        let data = iOSData(payload)
        if case .object(let aps)? = data["aps"] { return aps["badge"]?.stringValue == "Increment" }
        return data["badge"]?.stringValue == "Increment"
    }

    private static func iOSData(_ payload: JSONValue) -> [String: JSONValue] {
        PlatformPushData.data(for: "ios", in: payload)
    }
}
