import Foundation

/// One app's account with Huawei Push Kit (`push.huawei` in the config; a list for apps with
/// several, picked by the installation's `deviceProfile`).
public struct HuaweiSettings: VendorPushSettings, Equatable {
    /// AppGallery Connect's App ID, which is also the app's OAuth 2.0 client ID: the token
    /// request's `client_id` and the send URL's `[appid]`.
    public var appID: String
    /// The App Secret (the OAuth 2.0 client secret).
    public var appSecret: String
    public var tokenURL = URL(string: "https://oauth-login.cloud.huawei.com/oauth2/v3/token")!
    /// The notification's self-classification (`android.category`), `IM` for chat messages;
    /// nil leaves it out (for an app without Huawei's self-classification right).
    public var category: String? = "IM"
    /// The app's "Android Intent Hostname" for LeanCloud's tap intent.
    public var intentHost = MixPushIntent.defaultHost
    /// The app's launcher activity (`com.example.MainActivity`), which Huawei needs to set
    /// the icon's badge; without it, pushes carry no badge.
    public var badgeClass: String?
    /// Profile, endpoint, trust roots, tries, default title;
    /// messages go to `<baseURL>/v1/<appID>/messages:send`.
    public var common = VendorAccountSettings(baseURL: URL(string: "https://push-api.cloud.huawei.com")!)

    public init(appID: String, appSecret: String) {
        self.appID = appID
        self.appSecret = appSecret
    }
}

/// Huawei's App ID and App Secret are the app's OAuth client ID and secret.
extension HuaweiSettings: OAuthVendorSettings {
    var clientID: String { appID }
    var clientSecret: String { appSecret }
}
