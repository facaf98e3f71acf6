import Hummingbird

extension Request {
    /// The first value of a header, by its name in any case. (Hummingbird does not export
    /// the type that names headers, and LeanCloud's are not among the predefined ones.)
    func header(_ name: String) -> String? {
        let canonical = name.lowercased()
        return headers.first { $0.name.canonicalName == canonical }?.value
    }

    /// Whether the request carries the master key: `X-LC-Key: <master key>,master`, or
    /// without a key a master signature (`X-LC-Sign`).
    func carriesMasterKey(_ masterKey: String) -> Bool {
        if let key = header("X-LC-Key") { return key == masterKey + ",master" }
        if let signature = header("X-LC-Sign") { return RequestSignature.isValidMaster(signature, masterKey: masterKey) }
        return false
    }
}
