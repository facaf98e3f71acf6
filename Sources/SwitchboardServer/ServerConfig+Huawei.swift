extension ConfigFile {
    /// `push.huawei`: one Huawei Push Kit account, or a list of them told apart by `profile`.
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

    func applyHuawei(_ huawei: OneOrMany<Huawei>?, to config: inout ServerConfig) throws {
        guard let huawei else { return }
        config.huawei = try huawei.values.map(Self.huaweiSettings)
        try Self.checkProfiles(config.huawei.map(\.profile), section: "push.huawei")
    }

    private static func huaweiSettings(_ huawei: Huawei) throws -> HuaweiSettings {
        guard let appID = huawei.appId, !appID.isEmpty, let appSecret = huawei.appSecret, !appSecret.isEmpty else {
            throw ConfigError("push.huawei: appId and appSecret are required (AppGallery Connect, the app's OAuth 2.0 client ID and secret)")
        }
        var settings = HuaweiSettings(appID: appID, appSecret: appSecret)
        settings.profile = huawei.profile
        settings.tokenURL = try httpsURL(huawei.tokenUrl, key: "push.huawei.tokenUrl") ?? settings.tokenURL
        settings.sendURL = try httpsURL(huawei.sendUrl, key: "push.huawei.sendUrl") ?? settings.sendURL
        settings.category = unlessEmpty(huawei.category, else: settings.category)
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
}
