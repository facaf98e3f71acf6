extension ConfigFile {
    /// `push.huawei`: one Huawei Push Kit app, or a list of them told apart by `profile`.
    struct Huawei: Decodable {
        var appId: String?
        var appSecret: String?
        var profile: String?
        var tokenUrl: String?
        var sendUrl: String?
        var category: String?
        var intentHost: String?
        var badgeClass: String?
        var defaultTitle: String?
        var trustRootsFile: String?
        var attempts: Int?
        var firstRetryMs: Int?
    }

    static func huaweiSettings(_ accounts: [Huawei]) throws -> [HuaweiSettings] {
        let settings = try accounts.map { huawei in
            guard let appID = huawei.appId, !appID.isEmpty, let appSecret = huawei.appSecret, !appSecret.isEmpty else {
                throw ConfigError("push.huawei: appId and appSecret are required (AppGallery Connect: the app's OAuth 2.0 client ID and secret)")
            }
            var settings = HuaweiSettings(appID: appID, appSecret: appSecret)
            settings.profile = huawei.profile
            settings.tokenURL = try vendorURL(huawei.tokenUrl, "tokenUrl", of: "huawei") ?? settings.tokenURL
            settings.sendURL = try vendorURL(huawei.sendUrl, "sendUrl", of: "huawei") ?? settings.sendURL
            // `category: ""` leaves the classification out.
            settings.category = huawei.category.map { $0.isEmpty ? nil : $0 } ?? settings.category
            if let host = huawei.intentHost {
                guard !host.isEmpty else { throw ConfigError("push.huawei.intentHost: the app's Android Intent Hostname, not empty") }
                settings.intentHost = host
            }
            settings.badgeClass = huawei.badgeClass
            settings.defaultTitle = huawei.defaultTitle
            settings.trustRootsFile = huawei.trustRootsFile
            settings.attempts = huawei.attempts ?? settings.attempts
            settings.firstRetry = huawei.firstRetryMs.map { .milliseconds($0) } ?? settings.firstRetry
            return settings
        }
        try checkProfiles(settings.map(\.profile), of: "huawei")
        return settings
    }
}
