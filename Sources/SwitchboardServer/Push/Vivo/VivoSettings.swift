import Foundation

/// One app's account with vivo Push (`push.vivo` in the config; several, told apart by
/// `profile`, when devices register with different vivo apps).
public struct VivoSettings: Sendable, Equatable {
    /// The app's AppID, AppKey and AppSecret (vivo developer platform, Push).
    public var appID: Int64
    public var appKey: String
    public var appSecret: String
    /// The `deviceProfile` of the devices this account reaches; nil for the default account.
    public var profile: String?
    /// vivo's message class and category: an IM message is a system message (1) of category
    /// `IM`; operational messages (0) are capped per user and day. Empty leaves the category out.
    public var classification = 1
    public var category = "IM"
    /// The intent a tap opens (`skipType` 4): by default the activity LeanCloud's vivo push
    /// opened, whose filter is `mixpushscheme://cn.leancloud.push/detail`.
    public var clickIntent = "intent://cn.leancloud.push/detail#Intent;scheme=mixpushscheme;launchFlags=0x4000000;end"
    /// The title when a push has none (vivo requires one): typically the app's name.
    public var defaultTitle: String?
    /// Test pushes (`pushMode` 1) reach only the test devices entered on vivo's platform: the
    /// only pushes an app still under review may send.
    public var testPush = false
    public var baseURL = URL(string: "https://api-push.vivo.com.cn")!
    /// PEM certificates to trust instead of the system's (a proxy, or a test stand-in).
    public var trustRootsFile: String?
    /// Tries for a push vivo answers with a rate limit or a server error, waiting twice as long each time.
    public var attempts = 5
    public var firstRetry: Duration = .seconds(1)

    public init(appID: Int64, appKey: String, appSecret: String) {
        self.appID = appID
        self.appKey = appKey
        self.appSecret = appSecret
    }
}
