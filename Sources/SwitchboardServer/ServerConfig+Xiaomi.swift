import Foundation

extension ConfigFile {
    /// `push.xiaomi`: one MiPush app, or a list of them told apart by `profile`.
    struct Xiaomi: Decodable {
        var appSecret: String?
        var packageName: String?
        var profile: String?
        var sendUrl: String?
        var channelId: String?
        var activity: String?
        var defaultTitle: String?
        var trustRootsFile: String?
        var attempts: Int?
        var firstRetryMs: Int?
    }

    static func xiaomiSettings(_ accounts: [Xiaomi]) throws -> [XiaomiSettings] {
        let settings = try accounts.map { xiaomi in
            guard let appSecret = xiaomi.appSecret, !appSecret.isEmpty, let packageName = xiaomi.packageName, !packageName.isEmpty else {
                throw ConfigError("push.xiaomi: appSecret and packageName are required")
            }
            var settings = XiaomiSettings(appSecret: appSecret, packageName: packageName)
            settings.profile = xiaomi.profile
            settings.sendURL = try vendorURL(xiaomi.sendUrl, "sendUrl", of: "xiaomi") ?? settings.sendURL
            settings.channelID = xiaomi.channelId
            settings.activity = xiaomi.activity
            settings.defaultTitle = xiaomi.defaultTitle
            settings.trustRootsFile = xiaomi.trustRootsFile
            settings.attempts = xiaomi.attempts ?? settings.attempts
            settings.firstRetry = xiaomi.firstRetryMs.map { .milliseconds($0) } ?? settings.firstRetry
            return settings
        }
        try checkProfiles(settings.map(\.profile), of: "xiaomi")
        return settings
    }
}
