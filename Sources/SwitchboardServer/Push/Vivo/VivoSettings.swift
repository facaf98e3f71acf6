import Foundation

/// One app's account with vivo Push (`push.vivo` in the config; several, told apart by
/// `profile`, when devices register with different vivo apps).
public struct VivoSettings: VendorPushSettings, Equatable {
    /// The app's AppID, AppKey and AppSecret (vivo developer platform, Push).
    public var appID: Int64
    public var appKey: String
    public var appSecret: String
    /// vivo's message class and category: an IM message is a system message (1) of category
    /// `IM`; operational messages (0) are capped per user and day. Empty leaves the category out.
    public var classification = 1
    public var category = "IM"
    /// The intent a tap opens (`skipType` 4): by default the activity LeanCloud's vivo push
    /// opened, whose filter is `mixpushscheme://cn.leancloud.push/detail`.
    public var clickIntent = "intent://cn.leancloud.push/detail#Intent;scheme=mixpushscheme;launchFlags=0x4000000;end"
    /// Test pushes (`pushMode` 1) reach only the test devices entered on vivo's platform: the
    /// only pushes an app still under review may send.
    public var testPush = false
    /// Profile, endpoint, trust roots, tries, default title.
    public var common = VendorAccountSettings(baseURL: URL(string: "https://api-push.vivo.com.cn")!)

    public init(appID: Int64, appKey: String, appSecret: String) {
        self.appID = appID
        self.appKey = appKey
        self.appSecret = appSecret
    }
}
