extension ConfigFile {
    /// `push.honor`: one Honor Push account, or a list of them told apart by `profile`.
    struct Honor: Decodable {
        var appId: String?
        var clientId: String?
        var clientSecret: String?
        var profile: String?
        var tokenUrl: String?
        var sendUrl: String?
        var importance: String?
        var intentHost: String?
        var badgeClass: String?
        var defaultTitle: String?
        var trustRootsFile: String?
        var attempts: Int?
        var firstRetryMs: Int?
    }

    func applyHonor(_ honor: OneOrMany<Honor>?, to config: inout ServerConfig) throws {
        guard let honor else { return }
        config.honor = try honor.values.map(Self.honorSettings)
        try Self.checkProfiles(config.honor.map(\.profile), section: "push.honor")
    }

    private static func honorSettings(_ honor: Honor) throws -> HonorSettings {
        guard let appID = honor.appId, !appID.isEmpty, let clientID = honor.clientId, !clientID.isEmpty,
              let clientSecret = honor.clientSecret, !clientSecret.isEmpty
        else {
            throw ConfigError("push.honor: appId, clientId and clientSecret are required (Honor's developer platform, the app's push credentials)")
        }
        var settings = HonorSettings(appID: appID, clientID: clientID, clientSecret: clientSecret)
        settings.profile = honor.profile
        settings.tokenURL = try httpsURL(honor.tokenUrl, key: "push.honor.tokenUrl") ?? settings.tokenURL
        settings.sendURL = try httpsURL(honor.sendUrl, key: "push.honor.sendUrl") ?? settings.sendURL
        settings.importance = unlessEmpty(honor.importance, else: settings.importance)
        settings.intentHost = unlessEmpty(honor.intentHost, else: nil)
        settings.badgeClass = honor.badgeClass
        settings.defaultTitle = honor.defaultTitle
        settings.trustRootsFile = honor.trustRootsFile
        settings.attempts = honor.attempts ?? settings.attempts
        settings.firstRetry = honor.firstRetryMs.map { .milliseconds($0) } ?? settings.firstRetry
        return settings
    }
}
