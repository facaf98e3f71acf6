extension ConfigFile {
    /// `push.honor`: one Honor Push app, or a list of them told apart by `profile`.
    typealias Honor = VendorSection<HonorKeys>

    struct HonorKeys: VendorKeys {
        static let section = "honor"
        static let urlKey = "sendUrl"
        var appId: String?
        var clientId: String?
        var clientSecret: String?
        var tokenUrl: String?
        var importance: String?
        var intentHost: String?
        var badgeClass: String?
    }

    static func honorSettings(_ accounts: [Honor]) throws -> [HonorSettings] {
        try vendorSettings(accounts) { honor in
            guard let appID = honor.appId, !appID.isEmpty, let clientID = honor.clientId, !clientID.isEmpty,
                  let clientSecret = honor.clientSecret, !clientSecret.isEmpty
            else {
                throw ConfigError("push.honor: appId, clientId and clientSecret are required (Honor's developer platform: the app's push credentials)")
            }
            var settings = HonorSettings(appID: appID, clientID: clientID, clientSecret: clientSecret)
            settings.tokenURL = try vendorURL(honor.tokenUrl, "tokenUrl", of: "honor") ?? settings.tokenURL
            // `importance: ""` leaves it out; an empty intent host is none.
            settings.importance = honor.importance.map { $0.isEmpty ? nil : $0 } ?? settings.importance
            settings.intentHost = honor.intentHost.flatMap { $0.isEmpty ? nil : $0 }
            settings.badgeClass = honor.badgeClass
            return settings
        }
    }
}
