/// `push.xiaomi`: Xiaomi phones (installations with vendor `mi`) through MiPush.
enum XiaomiAccount: VendorAccount {
    static let section = "xiaomi"
    static let urlKey = "sendUrl"
    static let summary = "Android devices on Xiaomi's MiPush (`vendor` `mi`), by the account their `deviceProfile` picks"
    static var defaults: XiaomiSettings { XiaomiSettings(appSecret: "", packageName: "") }
    static var fields: [Setting.Key] {
        [
            .field("appSecret", String.self, "required", "the app's AppSecret (Xiaomi's console, app info)"),
            .field("packageName", String.self, "required", "the app's package name"),
            .field("channelId", String.self, "none", "the notification channel registered with Xiaomi for chat messages; without one, Xiaomi's default channel, one a device a day"),
            .field("activity", String.self, "none", "the activity a tap opens (its class name); else the app's launcher activity"),
        ]
    }

    static func settings(_ xiaomi: ConfigValue) throws -> XiaomiSettings {
        guard let appSecret = try xiaomi.read("appSecret", as: String.self), !appSecret.isEmpty,
              let packageName = try xiaomi.read("packageName", as: String.self), !packageName.isEmpty
        else {
            throw ConfigError("push.xiaomi: appSecret and packageName are required")
        }
        var settings = XiaomiSettings(appSecret: appSecret, packageName: packageName)
        settings.channelID = try xiaomi.read("channelId")
        settings.activity = try xiaomi.read("activity")
        return settings
    }
}
