import Foundation

extension ConfigFile {
    /// `push.vivo`: one vivo Push account, or a list of them told apart by `profile`.
    struct Vivo: Decodable {
        var appId: Int64?
        var appKey: String?
        var appSecret: String?
        var profile: String?
        var classification: Int?
        var category: String?
        var clickIntent: String?
        var defaultTitle: String?
        var testPush: Bool?
        var baseUrl: String?
        var trustRootsFile: String?
        var attempts: Int?
        var firstRetryMs: Int?
    }

    static func vivoSettings(_ accounts: [Vivo]) throws -> [VivoSettings] {
        let settings = try accounts.map { vivo in
            guard let appID = vivo.appId, let appKey = vivo.appKey, let appSecret = vivo.appSecret else {
                throw ConfigError("push.vivo: appId (a number), appKey and appSecret are required")
            }
            var settings = VivoSettings(appID: appID, appKey: appKey, appSecret: appSecret)
            settings.profile = vivo.profile
            settings.classification = vivo.classification ?? settings.classification
            guard [0, 1].contains(settings.classification) else { throw ConfigError("push.vivo.classification: 0 (operational) or 1 (system)") }
            settings.category = vivo.category ?? settings.category
            settings.clickIntent = vivo.clickIntent ?? settings.clickIntent
            settings.defaultTitle = vivo.defaultTitle
            settings.testPush = vivo.testPush ?? settings.testPush
            settings.baseURL = try vendorURL(vivo.baseUrl, "baseUrl", of: "vivo") ?? settings.baseURL
            settings.trustRootsFile = vivo.trustRootsFile
            settings.attempts = vivo.attempts ?? settings.attempts
            settings.firstRetry = vivo.firstRetryMs.map { .milliseconds($0) } ?? settings.firstRetry
            return settings
        }
        try checkProfiles(settings.map(\.profile), of: "vivo")
        return settings
    }
}
