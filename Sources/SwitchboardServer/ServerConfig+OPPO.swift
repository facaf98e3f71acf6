extension ConfigFile {
    /// `push.oppo`: one OPPO Push account, or a list of them told apart by `profile`.
    typealias OPPO = VendorSection<OPPOKeys>

    struct OPPOKeys: VendorKeys {
        static let section = "oppo"
        static let urlKey = "baseUrl"
        var appKey: String?
        var masterSecret: String?
        var channelId: String?
        var category: String?
        var notifyLevel: Int?
        var activity: String?
    }

    static func oppoSettings(_ accounts: [OPPO]) throws -> [OPPOSettings] {
        try vendorSettings(accounts) { oppo in
            guard let appKey = oppo.appKey, let masterSecret = oppo.masterSecret, let channelID = oppo.channelId else {
                throw ConfigError("push.oppo: appKey, masterSecret and channelId are required (channelId: the notification channel the app registered with OPPO)")
            }
            var settings = OPPOSettings(appKey: appKey, masterSecret: masterSecret, channelID: channelID)
            settings.category = oppo.category ?? settings.category
            settings.notifyLevel = oppo.notifyLevel ?? settings.notifyLevel
            guard [0, 1, 2, 16].contains(settings.notifyLevel) else { throw ConfigError("push.oppo.notifyLevel: 1, 2 or 16 (0 for none)") }
            settings.activity = oppo.activity
            return settings
        }
    }
}
