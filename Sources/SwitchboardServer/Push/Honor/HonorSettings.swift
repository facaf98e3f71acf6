import Foundation

/// One app's account with Honor Push (`push.honor` in the config; a list for apps with
/// several, picked by the installation's `deviceProfile`).
public struct HonorSettings: OAuthVendorSettings, Equatable {
    /// The app's APP ID on Honor's developer platform: the send URL's `{APPID}`.
    public var appID: String
    /// The app's OAuth client ID and secret, which the access token is asked for with.
    public var clientID: String
    public var clientSecret: String
    public var tokenURL = URL(string: "https://iam.developer.honor.com/auth/token")!
    /// The notification's `importance`: `NORMAL` is Honor's "service and communication" class
    /// that chat messages belong to (`LOW`, marketing, is shown silently); nil leaves it out.
    public var importance: String? = "NORMAL"
    /// When set, a tap opens the app's activity filtering LeanCloud's tap intent with this
    /// host (as for Huawei), with the push's own keys; else it opens the app.
    public var intentHost: String?
    /// The app's launcher activity, which Honor needs to set the icon's badge; without it,
    /// pushes carry no badge.
    public var badgeClass: String?
    /// Profile, endpoint, trust roots, tries, default title;
    /// messages go to `<baseURL>/api/v1/<appID>/sendMessage`.
    public var common = VendorAccountSettings(baseURL: URL(string: "https://push-api.cloud.honor.com")!)

    public init(appID: String, clientID: String, clientSecret: String) {
        self.appID = appID
        self.clientID = clientID
        self.clientSecret = clientSecret
    }
}
