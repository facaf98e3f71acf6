import Foundation

extension ConfigFile {
    /// `push.oppo`: one OPPO Push account, or a list of them told apart by `profile`.
    struct OPPO: Decodable {
        var appKey: String?
        var masterSecret: String?
        var channelId: String?
        var profile: String?
        var category: String?
        var notifyLevel: Int?
        var activity: String?
        var defaultTitle: String?
        var baseUrl: String?
        var trustRootsFile: String?
        var attempts: Int?
        var firstRetryMs: Int?
    }

    static func oppoSettings(_ accounts: [OPPO]) throws -> [OPPOSettings] {
        let settings = try accounts.map { oppo in
            guard let appKey = oppo.appKey, let masterSecret = oppo.masterSecret, let channelID = oppo.channelId else {
                throw ConfigError("push.oppo: appKey, masterSecret and channelId are required (channelId: the notification channel the app registered with OPPO)")
            }
            var settings = OPPOSettings(appKey: appKey, masterSecret: masterSecret, channelID: channelID)
            settings.profile = oppo.profile
            settings.category = oppo.category ?? settings.category
            settings.notifyLevel = oppo.notifyLevel ?? settings.notifyLevel
            guard [0, 1, 2, 16].contains(settings.notifyLevel) else { throw ConfigError("push.oppo.notifyLevel: 1, 2 or 16 (0 for none)") }
            settings.activity = oppo.activity
            settings.defaultTitle = oppo.defaultTitle
            settings.baseURL = try vendorURL(oppo.baseUrl, "baseUrl", of: "oppo") ?? settings.baseURL
            settings.trustRootsFile = oppo.trustRootsFile
            settings.attempts = oppo.attempts ?? settings.attempts
            settings.firstRetry = oppo.firstRetryMs.map { .milliseconds($0) } ?? settings.firstRetry
            return settings
        }
        try checkProfiles(settings.map(\.profile), of: "oppo")
        return settings
    }
}
