/// `push.vivo`: vivo phones (installations with vendor `vivo`) through vivo Push.
enum VivoAccount: VendorAccount {
    static let section = "vivo"
    static let urlKey = "baseUrl"
    static let summary = "vivo Push accounts for Android devices on vivo (`vendor` `vivo`), by `deviceProfile`"
    static var defaults: VivoSettings { VivoSettings(appID: 0, appKey: "", appSecret: "") }
    static var fields: [Setting.Key] {
        [
            .field("appId", Int64.self, "required", "the app's AppID (vivo developer platform, Push)"),
            .field("appKey", String.self, "required", "its AppKey"),
            .field("appSecret", String.self, "required", "its AppSecret"),
            .field("classification", "1, a system message (IM), or 0, operational (capped per user and day)", defaults, \.classification),
            .field("category", "vivo's message category; empty leaves it out", defaults, \.category),
            .field("clickIntent", "the intent a tap opens", defaults, \.clickIntent),
            .field("testPush", "test pushes reach only the test devices entered on vivo's platform (an app under review)", defaults, \.testPush),
        ]
    }

    static func settings(_ vivo: ConfigValue) throws -> VivoSettings {
        guard let appID = try vivo.read("appId", as: Int64.self), let appKey = try vivo.read("appKey", as: String.self),
              let appSecret = try vivo.read("appSecret", as: String.self)
        else {
            throw ConfigError("push.vivo: appId (a number), appKey and appSecret are required")
        }
        var settings = VivoSettings(appID: appID, appKey: appKey, appSecret: appSecret)
        settings.classification = try vivo.read("classification") ?? settings.classification
        guard [0, 1].contains(settings.classification) else { throw ConfigError("push.vivo.classification: 0 (operational) or 1 (system)") }
        settings.category = try vivo.read("category") ?? settings.category
        settings.clickIntent = try vivo.read("clickIntent") ?? settings.clickIntent
        settings.testPush = try vivo.read("testPush") ?? settings.testPush
        return settings
    }
}
