extension ConfigFile {
    /// `push.vivo`: one vivo Push account, or a list of them told apart by `profile`.
    typealias Vivo = VendorSection<VivoKeys>

    struct VivoKeys: VendorKeys {
        static let section = "vivo"
        static let urlKey = "baseUrl"
        var appId: Int64?
        var appKey: String?
        var appSecret: String?
        var classification: Int?
        var category: String?
        var clickIntent: String?
        var testPush: Bool?
    }

    static func vivoSettings(_ accounts: [Vivo]) throws -> [VivoSettings] {
        try vendorSettings(accounts) { vivo in
            guard let appID = vivo.appId, let appKey = vivo.appKey, let appSecret = vivo.appSecret else {
                throw ConfigError("push.vivo: appId (a number), appKey and appSecret are required")
            }
            var settings = VivoSettings(appID: appID, appKey: appKey, appSecret: appSecret)
            settings.classification = vivo.classification ?? settings.classification
            guard [0, 1].contains(settings.classification) else { throw ConfigError("push.vivo.classification: 0 (operational) or 1 (system)") }
            settings.category = vivo.category ?? settings.category
            settings.clickIntent = vivo.clickIntent ?? settings.clickIntent
            settings.testPush = vivo.testPush ?? settings.testPush
            return settings
        }
    }
}
