extension ConfigFile {
    /// `push.meizu`: one Flyme push app, or a list of them told apart by `profile`.
    typealias Meizu = VendorSection<MeizuKeys>

    struct MeizuKeys: VendorKeys {
        static let section = "meizu"
        static let urlKey = "sendUrl"
        var appId: String?
        var appSecret: String?
        var activity: String?
    }

    static func meizuSettings(_ accounts: [Meizu]) throws -> [MeizuSettings] {
        try vendorSettings(accounts) { meizu in
            guard let appID = meizu.appId, !appID.isEmpty, let appSecret = meizu.appSecret, !appSecret.isEmpty else {
                throw ConfigError("push.meizu: appId and appSecret are required")
            }
            var settings = MeizuSettings(appID: appID, appSecret: appSecret)
            settings.activity = meizu.activity
            return settings
        }
    }
}
