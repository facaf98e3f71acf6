/// `push.huawei`: Huawei phones (installations with vendor `HMS`) through Push Kit.
enum HuaweiAccount: VendorAccount {
    static let section = "huawei"
    static let urlKey = "sendUrl"
    static let summary = "Android devices on Huawei Push Kit (`vendor` `HMS`), with the account their `deviceProfile` picks"
    static var defaults: HuaweiSettings { HuaweiSettings(appID: "", appSecret: "") }
    static var fields: [Setting.Key] {
        [
            .field("appId", String.self, "required", "AppGallery Connect's App ID, the app's OAuth 2.0 client ID"),
            .field("appSecret", String.self, "required", "the App Secret, its OAuth 2.0 client secret"),
            .field("tokenUrl", "where access tokens come from (https)", defaults, \.tokenURL.absoluteString),
            .field("category", "the notification's self-classification; empty leaves it out", defaults, \.category),
            .field("intentHost", "the app's Android Intent Hostname for LeanCloud's tap intent", defaults, \.intentHost),
            .field("badgeClass", String.self, "none", "the app's launcher activity, which Huawei needs to set the icon's badge"),
        ]
    }

    static func settings(_ huawei: ConfigValue) throws -> HuaweiSettings {
        guard let appID = try huawei.read("appId", as: String.self), !appID.isEmpty, let appSecret = try huawei.read("appSecret", as: String.self), !appSecret.isEmpty else {
            throw ConfigError("push.huawei: appId and appSecret are required (AppGallery Connect: the app's OAuth 2.0 client ID and secret)")
        }
        var settings = HuaweiSettings(appID: appID, appSecret: appSecret)
        settings.tokenURL = try VendorPush.url(huawei, "tokenUrl", of: section) ?? settings.tokenURL
        // `category: ""` leaves the classification out.
        settings.category = try huawei.read("category", as: String.self).map { $0.isEmpty ? nil : $0 } ?? settings.category
        if let host = try huawei.read("intentHost", as: String.self) {
            guard !host.isEmpty else { throw ConfigError("push.huawei.intentHost: the app's Android Intent Hostname, not empty") }
            settings.intentHost = host
        }
        settings.badgeClass = try huawei.read("badgeClass")
        return settings
    }
}
