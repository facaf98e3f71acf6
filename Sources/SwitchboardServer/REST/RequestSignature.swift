import Crypto
import Foundation

/// LeanCloud's request signature, `X-LC-Sign: md5(timestamp + key),timestamp[,master]`: what
/// Switchboard sends to LeanEngine apps and what the REST API takes instead of the key.
enum RequestSignature {
    /// A master-key signature made now, or at `milliseconds`.
    static func sign(masterKey: String, at milliseconds: Int64 = Int64(Date().timeIntervalSince1970 * 1000)) -> String {
        digest("\(milliseconds)\(masterKey)") + ",\(milliseconds),master"
    }

    /// Whether `value` is a master-key signature made with `masterKey`.
    static func isValidMaster(_ value: String, masterKey: String) -> Bool {
        let parts = value.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2] == "master", Int64(parts[1]) != nil else { return false }
        return HeldSecret(digest("\(parts[1])\(masterKey)")).matches(parts[0].lowercased())
    }

    private static func digest(_ text: String) -> String {
        Insecure.MD5.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
