import Foundation

/// One app's account with Honor Push (`push.honor` in the config; a list for apps with
/// several, picked by the installation's `deviceProfile`).
public struct HonorSettings: VendorPushSettings, Equatable {
    /// The app's APP ID on Honor's developer platform: the send URL's `{APPID}`.
    public var appID: String
    /// The app's OAuth client ID and secret, which the access token is asked for with.
    public var clientID: String
    public var clientSecret: String
    /// The `deviceProfile` devices pick this account with; nil for the default account.
    public var profile: String?
    public var tokenURL = URL(string: "https://iam.developer.honor.com/auth/token")!
    /// Messages go to `<sendURL>/api/v1/<appID>/sendMessage`.
    public var sendURL = URL(string: "https://push-api.cloud.honor.com")!
    /// The notification's `importance`: `NORMAL` is Honor's "service and communication" class
    /// that chat messages belong to (`LOW`, marketing, is shown silently); nil leaves it out.
    public var importance: String? = "NORMAL"
    /// When set, a tap opens the app's activity filtering LeanCloud's tap intent with this
    /// host (as for Huawei), with the push's own keys; else it opens the app.
    public var intentHost: String?
    /// The app's launcher activity, which Honor needs to set the icon's badge; without it,
    /// pushes carry no badge.
    public var badgeClass: String?
    /// The notification's title when the push data has none: the app's name.
    public var defaultTitle: String?
    /// PEM certificates to trust instead of the system's (a proxy, or a test stand-in).
    public var trustRootsFile: String?
    /// Tries for a push Honor answers "later" (busy, flow control, 5xx), waiting twice as long each time.
    public var attempts = 5
    public var firstRetry: Duration = .seconds(1)

    public init(appID: String, clientID: String, clientSecret: String) {
        self.appID = appID
        self.clientID = clientID
        self.clientSecret = clientSecret
    }
}
