import Foundation

/// One Meizu Flyme push app (`push.meizu` in the config; a list for apps with several, picked
/// by the installation's `deviceProfile`).
public struct MeizuSettings: VendorPushSettings, Equatable {
    /// The app's AppId and AppSecret (Meizu's push platform, app list, configuration): the id
    /// goes with each request, the secret signs it.
    public var appID: String
    public var appSecret: String
    /// The activity a tap opens (its full class name); without one a tap opens the app. Either
    /// way the push data reaches it in the `com.avoscloud.Data` extra.
    public var activity: String?
    /// Profile, endpoint, trust roots, tries, default title.
    public var common = VendorAccountSettings(baseURL: URL(string: "https://server-api-push.meizu.com")!)

    public init(appID: String, appSecret: String) {
        self.appID = appID
        self.appSecret = appSecret
    }
}
