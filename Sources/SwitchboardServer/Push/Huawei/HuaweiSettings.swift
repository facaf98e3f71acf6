import Foundation

/// One app's account with Huawei Push Kit (`push.huawei` in the config; a list for apps with
/// several, picked by the installation's `deviceProfile`).
public struct HuaweiSettings: VendorPushSettings, Equatable {
    /// AppGallery Connect's App ID, which is also the app's OAuth 2.0 client ID: the token
    /// request's `client_id` and the send URL's `[appid]`.
    public var appID: String
    /// The App Secret (the OAuth 2.0 client secret).
    public var appSecret: String
    /// The `deviceProfile` devices pick this account with; nil for the default account.
    public var profile: String?
    public var tokenURL = URL(string: "https://oauth-login.cloud.huawei.com/oauth2/v3/token")!
    /// Messages go to `<sendURL>/v1/<appID>/messages:send`.
    public var sendURL = URL(string: "https://push-api.cloud.huawei.com")!
    /// The notification's self-classification (`android.category`), `IM` for chat messages;
    /// nil leaves it out (for an app without Huawei's self-classification right).
    public var category: String? = "IM"
    /// The app's "Android Intent Hostname" for LeanCloud's tap intent.
    public var intentHost = MixPushIntent.defaultHost
    /// The app's launcher activity (`com.example.MainActivity`), which Huawei needs to set
    /// the icon's badge; without it, pushes carry no badge.
    public var badgeClass: String?
    /// The notification's title when the push data has none (Huawei requires one): the app's name.
    public var defaultTitle: String?
    /// PEM certificates to trust instead of the system's (a proxy, or a test stand-in).
    public var trustRootsFile: String?
    /// Tries for a push Huawei answers "later" (busy, flow control, 5xx), waiting twice as long each time.
    public var attempts = 5
    public var firstRetry: Duration = .seconds(1)

    public init(appID: String, appSecret: String) {
        self.appID = appID
        self.appSecret = appSecret
    }
}
