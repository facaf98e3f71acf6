import Foundation

/// What the config sections of the vendor push providers (`push.xiaomi`, `push.meizu`, …) share:
/// endpoints that must be https, and accounts told apart by `profile`.
extension ConfigFile {
    /// The URL `text` gives `push.<section>.<key>`, nil when not given.
    static func vendorURL(_ text: String?, _ key: String, of section: String) throws -> URL? {
        guard let text else { return nil }
        guard let url = URL(string: text), url.scheme == "https", url.host != nil else { throw ConfigError("push.\(section).\(key): an https URL") }
        return url
    }

    /// Accounts of one vendor: each profile once, and one default at most (an account without a profile).
    static func checkProfiles(_ profiles: [String?], of section: String) throws {
        let named = profiles.compactMap { $0 }.filter { !$0.isEmpty }
        guard Set(named).count == named.count else { throw ConfigError("push.\(section): each profile once") }
        guard profiles.count - named.count <= 1 else { throw ConfigError("push.\(section): one account without a profile at most (the default)") }
    }
}
