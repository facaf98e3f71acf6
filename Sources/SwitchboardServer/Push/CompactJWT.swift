import Foundation
import SwitchboardJSON

/// A JWT in compact form (`header.claims.signature`, each base64url), as the push services
/// take them: APNs' provider token and Google's OAuth assertion.
enum CompactJWT {
    /// `sign` signs the `header.claims` text and returns the signature's bytes.
    static func make(header: JSONValue, claims: JSONValue, sign: (Data) throws -> Data) rethrows -> String {
        let signingInput = base64URL(Data(header.jsonString.utf8)) + "." + base64URL(Data(claims.jsonString.utf8))
        return signingInput + "." + base64URL(try sign(Data(signingInput.utf8)))
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
