import SwitchboardCore
import SwitchboardJSON

/// What a vendor's notification shows and what the app gets, from LeanCloud's push data for
/// Android (an `android` object replaces it; other platforms' keys are left out): the title
/// (`title`, else an `alert` object's `title`), the text (`alert`, or its `body`), whether it
/// is silent (`silent: true` or `content-available: 1`: the vendor's pass-through message),
/// and the data itself as JSON text, which LeanCloud's Android SDK parses on arrival and on a
/// tap (its mixed-push receivers hand it to `AndroidNotificationManager`, and the activity
/// it opens reads it from the `com.avoscloud.Data` intent extra).
struct AndroidPushContent: Equatable {
    /// The intent extra LeanCloud's Android SDK puts the push data in for the activity a tap opens.
    static let intentDataKey = "com.avoscloud.Data"

    let data: [String: JSONValue]
    let title: String?
    let text: String?
    let isSilent: Bool

    init(payload: JSONValue) {
        data = PlatformPushData.data(for: "android", in: payload)
        let alert = data["alert"]
        title = (data["title"] ?? alert?["title"]).map(Self.text)
        text = (alert?.objectValue == nil ? alert : alert?["body"]).map(Self.text)
        isSilent = data["silent"]?.boolValue == true || data["content-available"]?.int64Value == 1
    }

    /// What a notification shows: the vendors require both a title and a text, so a missing
    /// title is `defaultTitle`, else the text, and a missing text the title; nil when the data
    /// has neither (nothing to show).
    func shown(defaultTitle: String?) -> (title: String, text: String)? {
        guard let given = title ?? text else { return nil }
        return (title ?? defaultTitle ?? given, text ?? given)
    }

    /// The data as the app's handler parses it.
    var json: String { JSONValue.object(data).jsonString }

    private static func text(_ value: JSONValue) -> String {
        value.stringValue ?? value.jsonString
    }
}
