import Foundation

extension ConfigFile {
    /// `push.meizu`: one Flyme push app, or a list of them told apart by `profile`.
    struct Meizu: Decodable {
        var appId: String?
        var appSecret: String?
        var profile: String?
        var sendUrl: String?
        var activity: String?
        var defaultTitle: String?
        var trustRootsFile: String?
        var attempts: Int?
        var firstRetryMs: Int?
    }

    static func meizuSettings(_ accounts: [Meizu]) throws -> [MeizuSettings] {
        let settings = try accounts.map { meizu in
            guard let appID = meizu.appId, !appID.isEmpty, let appSecret = meizu.appSecret, !appSecret.isEmpty else {
                throw ConfigError("push.meizu: appId and appSecret are required")
            }
            var settings = MeizuSettings(appID: appID, appSecret: appSecret)
            settings.profile = meizu.profile
            settings.sendURL = try vendorURL(meizu.sendUrl, "sendUrl", of: "meizu") ?? settings.sendURL
            settings.activity = meizu.activity
            settings.defaultTitle = meizu.defaultTitle
            settings.trustRootsFile = meizu.trustRootsFile
            settings.attempts = meizu.attempts ?? settings.attempts
            settings.firstRetry = meizu.firstRetryMs.map { .milliseconds($0) } ?? settings.firstRetry
            return settings
        }
        try checkProfiles(settings.map(\.profile), of: "meizu")
        return settings
    }
}
