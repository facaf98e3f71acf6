import Foundation

/// One Xiaomi MiPush app (`push.xiaomi` in the config; a list for apps with several, picked
/// by the installation's `deviceProfile`).
public struct XiaomiSettings: VendorPushSettings, Equatable {
    /// The AppSecret (Xiaomi's console, app info), sent as `Authorization: key=…`.
    public var appSecret: String
    /// The app's package name (`restricted_package_name`).
    public var packageName: String
    public var profile: String?
    /// Mainland China's endpoint; apps for devices elsewhere use their region's
    /// (`https://sgp-api.xmpush.global.xiaomi.com` and the others Xiaomi lists).
    public var sendURL = URL(string: "https://api.xmpush.xiaomi.com")!
    /// The notification channel registered with Xiaomi for chat messages (`extra.channel_id`):
    /// without one, messages go through Xiaomi's default channel, one a device a day.
    public var channelID: String?
    /// The activity a tap opens (its class name), with the push data in the
    /// `com.avoscloud.Data` extra; without one a tap opens the app's launcher activity.
    public var activity: String?
    /// The title of a notification whose data has none (Xiaomi requires one).
    public var defaultTitle: String?
    /// PEM certificates to trust instead of the system's (a proxy, or a test stand-in).
    public var trustRootsFile: String?
    public var attempts = 5
    public var firstRetry: Duration = .seconds(1)

    public init(appSecret: String, packageName: String) {
        self.appSecret = appSecret
        self.packageName = packageName
    }
}
