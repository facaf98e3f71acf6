import Crypto
import Foundation

/// The `sign` every Meizu push API request carries: the MD5, in lowercase hex, of its other
/// parameters as `name=value` (raw, not URL-encoded) in name order, run together, followed by
/// the AppSecret (MEIZUPUSH/PushAPI, 接口签名规范).
enum MeizuSignature {
    static func sign(_ fields: [(name: String, value: String)], secret: String) -> String {
        let text = fields.sorted { $0.name < $1.name }.map { $0.name + "=" + $0.value }.joined() + secret
        return Insecure.MD5.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
