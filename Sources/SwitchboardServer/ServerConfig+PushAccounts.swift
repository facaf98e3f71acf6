import Foundation

extension ConfigFile {
    /// A vendor section's URL: https only, so keys and tokens never cross the network in clear.
    static func httpsURL(_ text: String?, key: String) throws -> URL? {
        guard let text else { return nil }
        guard let url = URL(string: text), url.scheme == "https", url.host != nil else { throw ConfigError("\(key): an https URL") }
        return url
    }

    /// A vendor's accounts are told apart by `profile` (the installations' `deviceProfile`):
    /// each profile once, and one account at most without one.
    static func checkProfiles(_ profiles: [String?], section: String) throws {
        let names = profiles.map { $0 ?? "" }
        guard Set(names).count == names.count else { throw ConfigError("\(section): each profile once, and one account at most without a profile") }
    }

    /// An optional field a vendor section may empty to leave it out of its pushes (`category: ""`).
    static func unlessEmpty(_ text: String?, else fallback: String?) -> String? {
        guard let text else { return fallback }
        return text.isEmpty ? nil : text
    }
}
