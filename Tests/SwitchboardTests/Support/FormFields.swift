import Foundation

/// An `application/x-www-form-urlencoded` body read back, as a push service's stand-in reads
/// the forms sent to it: names to values, percent-decoding undone (`+` stays a plus: the
/// senders percent-encode it).
enum FormFields {
    static func parse(_ body: String) -> [String: String] {
        Dictionary(body.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { String($0).removingPercentEncoding ?? "" }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }, uniquingKeysWith: { first, _ in first })
    }
}
