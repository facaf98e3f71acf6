import SwitchboardData
import SwitchboardWire

/// Checks the signatures clients attach to `session/open` and membership changes: fresh,
/// unambiguous, made with the master key, and not seen before (by any node).
struct SignatureCheck: Sendable {
    /// The signature a request carries: LeanCloud's `s`, `t` and `n`. LeanCloud's docs say
    /// `t` is in milliseconds, its own signing examples use seconds; both are taken.
    struct Presented {
        var signature: String?
        var timestamp: Int64?
        var nonce: String?
    }

    let signer: Signature
    /// Seconds a signature's timestamp may be away from the server's clock.
    let maxAge: Int64
    private let nonces = NonceRegistry()
    private let link: any NodeLink
    private let clock: any WallClock
    /// Timestamps above this are milliseconds (this many seconds is the year 5138).
    private static let millisecondsThreshold: Int64 = 100_000_000_000

    init(signer: Signature, maxAge: Int64, link: any NodeLink, clock: any WallClock) {
        self.signer = signer
        self.maxAge = maxAge
        self.link = link
        self.clock = clock
    }

    /// Ids are checked before (`ClientID`): none contains the `:` that joins them.
    ///
    /// - Parameters:
    ///   - expected: the digest for a given timestamp and nonce.
    ///   - failure: the code a refusal carries (4102 at login, 4302 for conversations).
    func verify(
        _ presented: Presented, failure: ErrorCode, expected: (_ timestamp: Int64, _ nonce: String) -> String
    ) async throws {
        guard let signature = presented.signature, let timestamp = presented.timestamp, let nonce = presented.nonce else {
            throw CommandError(failure, detail: "signature required")
        }
        let now = clock.now() / 1000
        let seconds = timestamp > Self.millisecondsThreshold ? timestamp / 1000 : timestamp
        guard abs(now - seconds) <= maxAge else {
            throw CommandError(failure, detail: "signature expired: a signature is good for \(maxAge) s after its timestamp")
        }
        guard Signature.matches(expected(timestamp, nonce), signature) else {
            throw CommandError(failure, detail: "signature mismatch")
        }
        let expiry = max(seconds, now) + maxAge
        guard nonces.use(nonce, until: expiry, now: now), try await link.useNonce(nonce, until: expiry, now: now) else {
            throw CommandError(failure, detail: "signature already used: each nonce is good once")
        }
    }
}
