import Foundation

/// The configuration reference: a Markdown table of every key the declarations give the file
/// (`ServerConfig.settings`), kept in `docs/configuration.md` between two markers and printed
/// by `switchboard config reference`.
public enum ConfigReference {
    public static let startMarker = "<!-- settings: generated from the declarations, do not edit -->"
    public static let endMarker = "<!-- end of settings -->"

    /// The table: key, type, default, what it does.
    public static var table: String {
        let rows = ServerConfig.settings.flatMap(\.keys).map { key in
            "| `\(key.path)` | \(key.type) | \(key.defaultValue) | \(key.summary) |"
        }
        return (["| key | type | default | what it does |", "|---|---|---|---|"] + rows).joined(separator: "\n") + "\n"
    }

    /// `document` with the table between the markers replaced by `table`; nil when the
    /// markers are missing.
    public static func updating(_ document: String) -> String? {
        guard let start = document.range(of: startMarker), let end = document.range(of: endMarker, range: start.upperBound..<document.endIndex) else { return nil }
        return String(document[..<start.upperBound]) + "\n" + table + String(document[end.lowerBound...])
    }
}
