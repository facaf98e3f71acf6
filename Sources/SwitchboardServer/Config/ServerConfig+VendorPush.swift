import Foundation

/// A Chinese Android maker's push section (`push.xiaomi`, `push.meizu`, …): one account, or a
/// list of them told apart by `profile`. Each maker declares its own keys and makes an
/// account's settings from them; the keys every account has (`VendorAccountSettings`) are
/// declared and read once, in `VendorPush`.
protocol VendorAccount {
    associatedtype Settings: VendorPushSettings
    /// `huawei`, `oppo`, …: the section's name under `push`.
    static var section: String { get }
    /// The key overriding the maker's endpoint (`VendorAccountSettings.baseURL`): `sendUrl` or `baseUrl`.
    static var urlKey: String { get }
    /// What the section does, for the reference.
    static var summary: String { get }
    /// The maker's own keys.
    static var fields: [Setting.Key] { get }
    /// Settings with placeholder credentials, whose other values are the defaults.
    static var defaults: Settings { get }
    /// An account's settings from the maker's own keys; a clear error for one missing.
    static func settings(_ account: ConfigValue) throws -> Settings
}

enum VendorPush {
    /// The declaration of `Account`'s section, read into `property`.
    static func section<Account: VendorAccount>(_: Account.Type, _ property: WritableKeyPath<ServerConfig, [Account.Settings]>) -> Setting {
        let common = Account.defaults.common
        return Setting(section: "push." + Account.section, type: "section or list", default: "none", Account.summary, fields: Account.fields + [
            .field("profile", String.self, "none", "the `deviceProfile` that picks this account; one account without it at most (the default)"),
            .field(Account.urlKey, "the maker's endpoint (https)", common, \.baseURL.absoluteString),
            .field("defaultTitle", String.self, "none", "the notification's title when the push has none (the makers require one): the app's name"),
            .field("trustRootsFile", String.self, "none", "PEM certificates to trust instead of the system's (a proxy, a test stand-in)"),
            .field("attempts", "tries for a push the maker answers \"later\" (busy, rate limited, 5xx)", common, \.attempts),
            .field("firstRetryMs", "the wait before the second try, doubling after each", common, \.firstRetry),
        ], sets: [property]) { accounts, config in
            let settings = try accounts.items.map { account in
                var settings = try Account.settings(account)
                settings.common.profile = try account.read("profile")
                settings.common.baseURL = try url(account, Account.urlKey, of: Account.section) ?? settings.common.baseURL
                settings.common.defaultTitle = try account.read("defaultTitle")
                settings.common.trustRootsFile = try account.read("trustRootsFile")
                settings.common.attempts = try account.read("attempts") ?? settings.common.attempts
                settings.common.firstRetry = try account.read("firstRetryMs") ?? settings.common.firstRetry
                return settings
            }
            try checkProfiles(settings.map(\.common.profile), of: Account.section)
            config[keyPath: property] = settings
        }
    }

    /// The https URL at `key` of a `push.<section>` account, nil when not given.
    static func url(_ account: ConfigValue, _ key: String, of section: String) throws -> URL? {
        guard let text = try account.read(key, as: String.self) else { return nil }
        guard let url = URL(string: text), url.scheme == "https", url.host != nil else { throw ConfigError("push.\(section).\(key): an https URL") }
        return url
    }

    /// Accounts of one maker: each profile once, and one default at most (an account without a profile).
    private static func checkProfiles(_ profiles: [String?], of section: String) throws {
        let named = profiles.compactMap { $0 }.filter { !$0.isEmpty }
        guard Set(named).count == named.count else { throw ConfigError("push.\(section): each profile once") }
        guard profiles.count - named.count <= 1 else { throw ConfigError("push.\(section): one account without a profile at most (the default)") }
    }
}
