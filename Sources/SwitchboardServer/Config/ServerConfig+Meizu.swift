/// `push.meizu`: Meizu phones (installations with vendor `mz`) through Flyme push.
enum MeizuAccount: VendorAccount {
    static let section = "meizu"
    static let urlKey = "sendUrl"
    static let summary = "Android devices on Meizu's Flyme push (`vendor` `mz`), by the account their `deviceProfile` picks"
    static var defaults: MeizuSettings { MeizuSettings(appID: "", appSecret: "") }
    static var fields: [Setting.Key] {
        [
            .field("appId", String.self, "required", "the app's AppId (Meizu's push platform)"),
            .field("appSecret", String.self, "required", "its AppSecret, which signs requests"),
            .field("activity", String.self, "none", "the activity a tap opens (its full class name); else the app"),
        ]
    }

    static func settings(_ meizu: ConfigValue) throws -> MeizuSettings {
        guard let appID = try meizu.read("appId", as: String.self), !appID.isEmpty, let appSecret = try meizu.read("appSecret", as: String.self), !appSecret.isEmpty else {
            throw ConfigError("push.meizu: appId and appSecret are required")
        }
        var settings = MeizuSettings(appID: appID, appSecret: appSecret)
        settings.activity = try meizu.read("activity")
        return settings
    }
}
