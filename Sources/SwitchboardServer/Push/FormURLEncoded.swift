import Foundation

/// `application/x-www-form-urlencoded` bodies, as the push services that take forms (Xiaomi,
/// Meizu) read them: every character but RFC 3986's unreserved ones percent-encoded, UTF-8.
enum FormURLEncoded {
    static func body(_ fields: [(name: String, value: String)]) -> String {
        fields.map { escaped($0.name) + "=" + escaped($0.value) }.joined(separator: "&")
    }

    /// RFC 3986's unreserved characters stay; everything else (`+`, `&`, `/`, `=`, UTF-8) is
    /// percent-encoded, so a value arrives exactly as it was.
    static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
