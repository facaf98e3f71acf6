import Foundation

/// What every account with a Chinese Android maker's push service is configured with besides
/// its keys (the same config keys in each maker's section): the profile that picks it, where
/// its requests go, whom to trust, how often to try, and the title of a push that has none.
public struct VendorAccountSettings: Sendable, Equatable {
    /// The `deviceProfile` devices pick this account with; nil for the default account.
    public var profile: String?
    /// Where the account's requests go, each maker's paths under it (config: `sendUrl` for
    /// Huawei, Honor, Xiaomi and Meizu, `baseUrl` for OPPO and vivo, whose auth goes there too).
    public var baseURL: URL
    /// The notification's title when the push data has none (the makers require one): the app's name.
    public var defaultTitle: String?
    /// PEM certificates to trust instead of the system's (a proxy, or a test stand-in).
    public var trustRootsFile: String?
    /// Tries for a push the maker answers "later" (busy, rate limited, 5xx), waiting twice as long each time.
    public var attempts = 5
    public var firstRetry: Duration = .seconds(1)

    /// - Parameter baseURL: the maker's own endpoint, which the config may override.
    public init(baseURL: URL) {
        self.baseURL = baseURL
    }
}
