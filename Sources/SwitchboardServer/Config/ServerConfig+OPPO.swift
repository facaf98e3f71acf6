/// `push.oppo`: OPPO phones (installations with vendor `oppo`) through OPPO Push.
enum OPPOAccount: VendorAccount {
    static let section = "oppo"
    static let urlKey = "baseUrl"
    static let summary = "OPPO Push accounts for Android devices on OPPO (`vendor` `oppo`), by `deviceProfile`"
    static var defaults: OPPOSettings { OPPOSettings(appKey: "", masterSecret: "", channelID: "") }
    static var fields: [Setting.Key] {
        [
            .field("appKey", String.self, "required", "the app's AppKey (OPPO Push platform)"),
            .field("masterSecret", String.self, "required", "its MasterSecret"),
            .field("channelId", String.self, "required", "the notification channel the app created and registered with OPPO"),
            .field("category", "OPPO's message category; empty leaves it out", defaults, \.category),
            .field("notifyLevel", "the reminder level: 1, 2 or 16 (0 leaves it out)", defaults, \.notifyLevel),
            .field("activity", String.self, "none", "the activity a tap opens (its full class name); else the app"),
        ]
    }

    static func settings(_ oppo: ConfigValue) throws -> OPPOSettings {
        guard let appKey = try oppo.read("appKey", as: String.self), let masterSecret = try oppo.read("masterSecret", as: String.self),
              let channelID = try oppo.read("channelId", as: String.self)
        else {
            throw ConfigError("push.oppo: appKey, masterSecret and channelId are required (channelId: the notification channel the app registered with OPPO)")
        }
        var settings = OPPOSettings(appKey: appKey, masterSecret: masterSecret, channelID: channelID)
        settings.category = try oppo.read("category") ?? settings.category
        settings.notifyLevel = try oppo.read("notifyLevel") ?? settings.notifyLevel
        guard [0, 1, 2, 16].contains(settings.notifyLevel) else { throw ConfigError("push.oppo.notifyLevel: 1, 2 or 16 (0 for none)") }
        settings.activity = try oppo.read("activity")
        return settings
    }
}
