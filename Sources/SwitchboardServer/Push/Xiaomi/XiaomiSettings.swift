import Foundation

/// One Xiaomi MiPush app (`push.xiaomi` in the config; a list for apps with several, picked
/// by the installation's `deviceProfile`).
public struct XiaomiSettings: VendorPushSettings, Equatable {
    /// The AppSecret (Xiaomi's console, app info), sent as `Authorization: key=…`.
    public var appSecret: String
    /// The app's package name (`restricted_package_name`).
    public var packageName: String
    /// The notification channel registered with Xiaomi for chat messages (`extra.channel_id`):
    /// without one, messages go through Xiaomi's default channel, one a device a day.
    public var channelID: String?
    /// The activity a tap opens (its class name), with the push data in the
    /// `com.avoscloud.Data` extra; without one a tap opens the app's launcher activity.
    public var activity: String?
    /// Profile, endpoint, trust roots, tries, default title;
    /// Mainland China's endpoint: apps for devices elsewhere set their region's
    /// (`https://sgp-api.xmpush.global.xiaomi.com` and the others Xiaomi lists).
    public var common = VendorAccountSettings(baseURL: URL(string: "https://api.xmpush.xiaomi.com")!)

    public init(appSecret: String, packageName: String) {
        self.appSecret = appSecret
        self.packageName = packageName
    }
}
