import SwitchboardJSON

extension AndroidPushContent {
    /// The keys a notification shows or acts on itself rather than handing to the app.
    private static let shownKeys: Set<String> = ["title", "alert", "badge", "sound", "silent", "content-available"]

    /// The intent extras a tap hands the activity it opens, for makers whose notifications
    /// carry extras but no pass-through data (OPPO's `action_parameters`, vivo's
    /// `clientCustomMap`): the whole data as JSON text under `com.avoscloud.Data`, where
    /// LeanCloud's Android SDK hands it to the app's activity, then each of the app's own keys
    /// as text (LeanCloud's vivo demo activity reads them one by one). Sorted, so a vendor's
    /// limit keeps the same ones.
    var tapExtras: [(key: String, value: String)] {
        let own = appData.sorted { $0.key < $1.key }
        return [(key: Self.intentDataKey, value: json)] + own.map { (key: $0.key, value: $0.value.stringValue ?? $0.value.jsonString) }
    }

    /// The app's own keys: the data but for what a notification shows or acts on itself.
    var appData: [String: JSONValue] {
        data.filter { !Self.shownKeys.contains($0.key) }
    }

    /// Whether the data names a sound (LeanCloud's Android data cannot pick one).
    var namesSound: Bool {
        data["sound"].map { $0 != "" && $0 != .null } ?? false
    }
}
