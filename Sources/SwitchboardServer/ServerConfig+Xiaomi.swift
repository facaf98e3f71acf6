extension ConfigFile {
    /// `push.xiaomi`: one MiPush app, or a list of them told apart by `profile`.
    typealias Xiaomi = VendorSection<XiaomiKeys>

    struct XiaomiKeys: VendorKeys {
        static let section = "xiaomi"
        static let urlKey = "sendUrl"
        var appSecret: String?
        var packageName: String?
        var channelId: String?
        var activity: String?
    }

    static func xiaomiSettings(_ accounts: [Xiaomi]) throws -> [XiaomiSettings] {
        try vendorSettings(accounts) { xiaomi in
            guard let appSecret = xiaomi.appSecret, !appSecret.isEmpty, let packageName = xiaomi.packageName, !packageName.isEmpty else {
                throw ConfigError("push.xiaomi: appSecret and packageName are required")
            }
            var settings = XiaomiSettings(appSecret: appSecret, packageName: packageName)
            settings.channelID = xiaomi.channelId
            settings.activity = xiaomi.activity
            return settings
        }
    }
}
