import Foundation

/// One app's account with OPPO Push (`push.oppo` in the config; several, told apart by
/// `profile`, when devices register with different OPPO apps).
public struct OPPOSettings: VendorPushSettings, Equatable {
    /// The app's AppKey and MasterSecret (OPPO Push platform, Configuration, Application).
    public var appKey: String
    public var masterSecret: String
    /// The notification channel the app creates and has registered with OPPO: Android 8 and
    /// later show no notification without one.
    public var channelID: String
    /// OPPO's message category and reminder level for an IM app's messages (`IM`, and `2`:
    /// notification shade and lock screen; `16` adds banner, sound and vibration for IM apps
    /// OPPO has approved); empty and 0 leave them out.
    public var category = "IM"
    public var notifyLevel = 2
    /// The activity a tap opens (its full class name); nil opens the app.
    public var activity: String?
    /// Profile, endpoint, trust roots, tries, default title;
    /// auth and pushes go to `https://api-intl.push.oppomobile.com` for devices outside China.
    public var common = VendorAccountSettings(baseURL: URL(string: "https://api.push.oppomobile.com")!)

    public init(appKey: String, masterSecret: String, channelID: String) {
        self.appKey = appKey
        self.masterSecret = masterSecret
        self.channelID = channelID
    }
}
