extension ConfigFile {
    /// `push.huawei`: one Huawei Push Kit app, or a list of them told apart by `profile`.
    typealias Huawei = VendorSection<HuaweiKeys>

    struct HuaweiKeys: VendorKeys {
        static let section = "huawei"
        static let urlKey = "sendUrl"
        var appId: String?
        var appSecret: String?
        var tokenUrl: String?
        var category: String?
        var intentHost: String?
        var badgeClass: String?
    }

    static func huaweiSettings(_ accounts: [Huawei]) throws -> [HuaweiSettings] {
        try vendorSettings(accounts) { huawei in
            guard let appID = huawei.appId, !appID.isEmpty, let appSecret = huawei.appSecret, !appSecret.isEmpty else {
                throw ConfigError("push.huawei: appId and appSecret are required (AppGallery Connect: the app's OAuth 2.0 client ID and secret)")
            }
            var settings = HuaweiSettings(appID: appID, appSecret: appSecret)
            settings.tokenURL = try vendorURL(huawei.tokenUrl, "tokenUrl", of: "huawei") ?? settings.tokenURL
            // `category: ""` leaves the classification out.
            settings.category = huawei.category.map { $0.isEmpty ? nil : $0 } ?? settings.category
            if let host = huawei.intentHost {
                guard !host.isEmpty else { throw ConfigError("push.huawei.intentHost: the app's Android Intent Hostname, not empty") }
                settings.intentHost = host
            }
            settings.badgeClass = huawei.badgeClass
            return settings
        }
    }
}
