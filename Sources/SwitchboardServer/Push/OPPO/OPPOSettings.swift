import Foundation

/// One app's account with OPPO Push (`push.oppo` in the config; several, told apart by
/// `profile`, when devices register with different OPPO apps).
public struct OPPOSettings: Sendable, Equatable {
    /// The app's AppKey and MasterSecret (OPPO Push platform, Configuration, Application).
    public var appKey: String
    public var masterSecret: String
    /// The notification channel the app creates and has registered with OPPO: Android 8 and
    /// later show no notification without one.
    public var channelID: String
    /// The `deviceProfile` of the devices this account reaches; nil for the default account.
    public var profile: String?
    /// OPPO's message category and reminder level for an IM app's messages (`IM`, and `2`:
    /// notification shade and lock screen; `16` adds banner, sound and vibration for IM apps
    /// OPPO has approved); empty and 0 leave them out.
    public var category = "IM"
    public var notifyLevel = 2
    /// The activity a tap opens (its full class name); nil opens the app.
    public var activity: String?
    /// The title when a push has none (OPPO requires one): typically the app's name.
    public var defaultTitle: String?
    /// Where auth and pushes go (`https://api-intl.push.oppomobile.com` for devices outside China).
    public var baseURL = URL(string: "https://api.push.oppomobile.com")!
    /// PEM certificates to trust instead of the system's (a proxy, or a test stand-in).
    public var trustRootsFile: String?
    /// Tries for a push OPPO answers with flow control or a server error, waiting twice as long each time.
    public var attempts = 5
    public var firstRetry: Duration = .seconds(1)

    public init(appKey: String, masterSecret: String, channelID: String) {
        self.appKey = appKey
        self.masterSecret = masterSecret
        self.channelID = channelID
    }
}
