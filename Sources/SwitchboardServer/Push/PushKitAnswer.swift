/// What Huawei Push Kit's answer to a send means for the device, by its result code (the body's
/// `code`) and HTTP status, as Huawei's "Result Codes" for the downlink message API list them.
/// Honor Push, which grew out of it, is read with the same codes: Honor's own table was not at
/// hand. One token per request, so "all the tokens are invalid" is about this device.
enum PushKitAnswer {
    /// The result codes this provider acts on.
    enum Code {
        static let success = "80000000"
        /// Some of the request's tokens went: with one token, never this one failing.
        static let partialSuccess = "80100000"
        static let oauthAuthenticationError = "80200001"
        static let oauthTokenExpired = "80200003"
        static let allTokensInvalid = "80300007"
        static let bodyTooLarge = "80300008"
        /// The OAuth service could not be asked (on the vendor's side).
        static let oauthServiceFailed = "80600003"
        static let internalError = "81000001"
    }

    /// - Parameters:
    ///   - code: the result code, nil when the body had none (a gateway's own error page).
    ///   - retryAfter: the `Retry-After` header, as sent.
    /// - Returns: what became of the push, and whether the access token was refused (the
    ///   provider drops it so the next try fetches another).
    static func interpret(status: Int, code: String?, message: String, retryAfter: String?) -> (answer: DevicePushAnswer, accessTokenRefused: Bool) {
        let reason = "\(code ?? "HTTP \(status)"): \(message)"
        switch code {
        case Code.success?, Code.partialSuccess?:
            return (.accepted, false)
        case Code.allTokensInvalid?:
            return (.deadToken(reason), false)
        case Code.oauthAuthenticationError?, Code.oauthTokenExpired?:
            return (.later(reason), true)
        case Code.bodyTooLarge?:
            return (.refused(reason), false)
        case Code.oauthServiceFailed?, Code.internalError?:
            return (.later(reason, retryAfter: RetryAfterHeader.duration(retryAfter)), false)
        default:
            break
        }
        switch status {
        case 401:
            return (.later(reason), true)
        // 503 is Push Kit's flow control; 429 a gateway's rate limit; 5xx the service failing.
        case 429, 500...:
            return (.later(reason, retryAfter: RetryAfterHeader.duration(retryAfter)), false)
        default:
            return (.refused(reason), false)
        }
    }
}
