/// `push.honor`: Honor phones (installations with vendor `honor`) through Honor Push.
enum HonorAccount: VendorAccount {
    static let section = "honor"
    static let urlKey = "sendUrl"
    static let summary = "Android devices on Honor Push (`vendor` `honor`), with the account their `deviceProfile` picks"
    static var defaults: HonorSettings { HonorSettings(appID: "", clientID: "", clientSecret: "") }
    static var fields: [Setting.Key] {
        [
            .field("appId", String.self, "required", "the app's APP ID on Honor's developer platform"),
            .field("clientId", String.self, "required", "the app's OAuth client ID"),
            .field("clientSecret", String.self, "required", "and its secret"),
            .field("tokenUrl", "where access tokens come from (https)", defaults, \.tokenURL.absoluteString),
            .field("importance", "the notification's `importance`; empty leaves it out", defaults, \.importance),
            .field("intentHost", String.self, "none", "a tap opens the app's activity filtering LeanCloud's tap intent with this host; else it opens the app"),
            .field("badgeClass", String.self, "none", "the app's launcher activity, which Honor needs to set the icon's badge"),
        ]
    }

    static func settings(_ honor: ConfigValue) throws -> HonorSettings {
        guard let appID = try honor.read("appId", as: String.self), !appID.isEmpty, let clientID = try honor.read("clientId", as: String.self), !clientID.isEmpty,
              let clientSecret = try honor.read("clientSecret", as: String.self), !clientSecret.isEmpty
        else {
            throw ConfigError("push.honor: appId, clientId and clientSecret are required (Honor's developer platform: the app's push credentials)")
        }
        var settings = HonorSettings(appID: appID, clientID: clientID, clientSecret: clientSecret)
        settings.tokenURL = try VendorPush.url(honor, "tokenUrl", of: section) ?? settings.tokenURL
        // `importance: ""` leaves it out; an empty intent host is none.
        settings.importance = try honor.read("importance", as: String.self).map { $0.isEmpty ? nil : $0 } ?? settings.importance
        settings.intentHost = try honor.read("intentHost", as: String.self).flatMap { $0.isEmpty ? nil : $0 }
        settings.badgeClass = try honor.read("badgeClass")
        return settings
    }
}
