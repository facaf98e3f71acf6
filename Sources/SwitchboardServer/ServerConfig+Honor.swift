extension ConfigFile {
    /// `push.honor`: one Honor Push app, or a list of them told apart by `profile`.
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

    static func honorSettings(_ accounts: [Honor]) throws -> [HonorSettings] {
        let settings = try accounts.map { honor in
            guard let appID = honor.appId, !appID.isEmpty, let clientID = honor.clientId, !clientID.isEmpty,
                  let clientSecret = honor.clientSecret, !clientSecret.isEmpty
            else {
                throw ConfigError("push.honor: appId, clientId and clientSecret are required (Honor's developer platform: the app's push credentials)")
            }
            var settings = HonorSettings(appID: appID, clientID: clientID, clientSecret: clientSecret)
            settings.profile = honor.profile
            settings.tokenURL = try vendorURL(honor.tokenUrl, "tokenUrl", of: "honor") ?? settings.tokenURL
            settings.sendURL = try vendorURL(honor.sendUrl, "sendUrl", of: "honor") ?? settings.sendURL
            // `importance: ""` leaves it out; an empty intent host is none.
            settings.importance = honor.importance.map { $0.isEmpty ? nil : $0 } ?? settings.importance
            settings.intentHost = honor.intentHost.flatMap { $0.isEmpty ? nil : $0 }
            settings.badgeClass = honor.badgeClass
            settings.defaultTitle = honor.defaultTitle
            settings.trustRootsFile = honor.trustRootsFile
            settings.attempts = honor.attempts ?? settings.attempts
            settings.firstRetry = honor.firstRetryMs.map { .milliseconds($0) } ?? settings.firstRetry
            return settings
        }
        try checkProfiles(settings.map(\.profile), of: "honor")
        return settings
    }
}
