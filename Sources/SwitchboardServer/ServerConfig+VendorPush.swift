import Foundation

/// What the config sections of the vendor push providers (`push.xiaomi`, `push.meizu`, …) share:
/// the keys every account has (`VendorAccountSettings`), endpoints that must be https, and
/// accounts told apart by `profile`.
extension ConfigFile {
    /// The URL `text` gives `push.<section>.<key>`, nil when not given.
    static func vendorURL(_ text: String?, _ key: String, of section: String) throws -> URL? {
        guard let text else { return nil }
        guard let url = URL(string: text), url.scheme == "https", url.host != nil else { throw ConfigError("push.\(section).\(key): an https URL") }
        return url
    }

    /// Accounts of one vendor: each profile once, and one default at most (an account without a profile).
    private static func checkProfiles(_ profiles: [String?], of section: String) throws {
        let named = profiles.compactMap { $0 }.filter { !$0.isEmpty }
        guard Set(named).count == named.count else { throw ConfigError("push.\(section): each profile once") }
        guard profiles.count - named.count <= 1 else { throw ConfigError("push.\(section): one account without a profile at most (the default)") }
    }

    /// A maker's own keys in its `push.<section>` account (its credentials and message options).
    protocol VendorKeys: Decodable {
        /// `huawei`, `oppo`, …: for errors.
        static var section: String { get }
        /// The key overriding the maker's endpoint (`VendorAccountSettings.baseURL`): `sendUrl` or `baseUrl`.
        static var urlKey: String { get }
    }

    /// One account in a maker's section: the maker's own keys and those every maker's
    /// account has, read from the same mapping.
    struct VendorSection<Own: VendorKeys>: Decodable {
        let own: Own
        let common: VendorAccountKeys

        init(from decoder: any Decoder) throws {
            own = try Own(from: decoder)
            common = try VendorAccountKeys(from: decoder, urlKey: Own.urlKey)
        }
    }

    /// The keys of `VendorAccountSettings`: `profile`, the endpoint, `defaultTitle`,
    /// `trustRootsFile`, `attempts`, `firstRetryMs`.
    struct VendorAccountKeys {
        var profile: String?
        var url: String?
        var defaultTitle: String?
        var trustRootsFile: String?
        var attempts: Int?
        var firstRetryMs: Int?

        private struct Key: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder, urlKey: String) throws {
            let keys = try decoder.container(keyedBy: Key.self)
            func string(_ name: String) throws -> String? { try keys.decodeIfPresent(String.self, forKey: Key(stringValue: name)) }
            profile = try string("profile")
            url = try string(urlKey)
            defaultTitle = try string("defaultTitle")
            trustRootsFile = try string("trustRootsFile")
            attempts = try keys.decodeIfPresent(Int.self, forKey: Key(stringValue: "attempts"))
            firstRetryMs = try keys.decodeIfPresent(Int.self, forKey: Key(stringValue: "firstRetryMs"))
        }
    }

    /// A maker's accounts: `make` reads each one's own keys (a clear error for one missing),
    /// the keys every account has are read here, then the profiles are checked.
    static func vendorSettings<Own, Settings: VendorPushSettings>(_ accounts: [VendorSection<Own>], make: (Own) throws -> Settings) throws -> [Settings] {
        let settings = try accounts.map { account in
            var settings = try make(account.own)
            let keys = account.common
            settings.common.profile = keys.profile
            settings.common.baseURL = try vendorURL(keys.url, Own.urlKey, of: Own.section) ?? settings.common.baseURL
            settings.common.defaultTitle = keys.defaultTitle
            settings.common.trustRootsFile = keys.trustRootsFile
            settings.common.attempts = keys.attempts ?? settings.common.attempts
            settings.common.firstRetry = keys.firstRetryMs.map { .milliseconds($0) } ?? settings.common.firstRetry
            return settings
        }
        try checkProfiles(settings.map(\.common.profile), of: Own.section)
        return settings
    }
}
