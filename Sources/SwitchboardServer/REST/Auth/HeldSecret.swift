import Crypto
import Foundation

/// A secret the server holds (a key, the signature it expects), which a request's offer is
/// compared with in constant time: both are hashed with SHA-256 and swift-crypto compares
/// digests without stopping at the first byte that differs, so neither how much of an offer
/// is right nor the secret's length shows in the time an answer takes.
struct HeldSecret: Sendable {
    private let digest: SHA256Digest

    init(_ secret: String) {
        digest = SHA256.hash(data: Data(secret.utf8))
    }

    func matches(_ offered: String) -> Bool {
        SHA256.hash(data: Data(offered.utf8)) == digest
    }
}
