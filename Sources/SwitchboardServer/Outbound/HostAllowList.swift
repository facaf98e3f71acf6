import Foundation

/// The hosts hook scripts may call (`hooks.http.allow`): `api.example.com` (any port),
/// `api.example.com:8443` (that port only), `*.example.com` (its subdomains, not itself),
/// and addresses alike (`127.0.0.1:8080`, `[::1]:8080`). Names match without case and
/// without a DNS lookup: an allowed name stands for whatever it resolves to.
public struct HostAllowList: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        var host: String
        var subdomains: Bool
        var port: Int?
    }

    let entries: [Entry]

    /// Nothing allowed: outbound HTTP off.
    public static let none = HostAllowList(entries: [])

    private init(entries: [Entry]) {
        self.entries = entries
    }

    public init(_ patterns: [String]) throws(ConfigError) {
        entries = try patterns.map { pattern throws(ConfigError) in
            guard let entry = Self.entry(pattern) else {
                throw ConfigError("hooks.http.allow: \(pattern) is not a host, host:port or *.domain")
            }
            return entry
        }
    }

    public var isEmpty: Bool { entries.isEmpty }

    func allows(host: String, port: Int) -> Bool {
        let host = Self.plain(host)
        return entries.contains { entry in
            (entry.port == nil || entry.port == port) && (entry.subdomains ? host.hasSuffix("." + entry.host) : host == entry.host)
        }
    }

    /// Lowercase, without IPv6 brackets or the root's trailing dot.
    private static func plain(_ host: some StringProtocol) -> String {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        return host
    }

    private static func entry(_ pattern: String) -> Entry? {
        var text = Substring(pattern.trimmingCharacters(in: .whitespaces))
        var port: Int?
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let number = Int(after.dropFirst()) else { return nil }
                port = number
            }
            text = text[...close]
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            guard let number = Int(text[text.index(after: colon)...]) else { return nil }
            port = number
            text = text[..<colon]
        }
        if let port, !(1...65535).contains(port) { return nil }
        let subdomains = text.hasPrefix("*.")
        let host = plain(subdomains ? text.dropFirst(2) : text)
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-.:")
        guard !host.isEmpty, host.allSatisfy({ allowed.contains($0) }), !host.contains("*") else { return nil }
        return Entry(host: host, subdomains: subdomains, port: port)
    }
}
