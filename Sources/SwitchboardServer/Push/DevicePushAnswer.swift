/// What a push service answered for one device's push.
enum DevicePushAnswer: Sendable {
    case accepted
    /// The token no longer reaches a device: it is forgotten.
    case deadToken(String)
    /// Refused for a reason trying again will not change.
    case refused(String)
    /// Failed for now (429, 5xx, the network): tried again, after `retryAfter` when the
    /// service said how long to wait (`Retry-After`, read by `RetryAfterHeader`) or its docs
    /// ask for a wait of their own, else after the provider's next backoff.
    case later(String, retryAfter: Duration? = nil)
    /// The app's quota with the service is used up (a vendor's daily limit): counted and
    /// logged, not tried again, since trying again before the quota renews only burns requests.
    case quotaExhausted(String)
}
