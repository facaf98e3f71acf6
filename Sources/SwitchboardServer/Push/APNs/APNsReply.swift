/// What came of one request to APNs (Apple's "Handling notification responses from APNs":
/// the `:status` and the JSON body's `reason`), and what it means for the push.
enum APNsReply: Sendable, Equatable {
    case answered(status: Int, reason: String, retryAfter: Duration?)
    /// No answer: the connection failed or timed out.
    case noAnswer(String)
    /// The provider token could not be signed, which trying again does not change.
    case unsigned(String)

    var reason: String? {
        if case .answered(_, let reason, _) = self { return reason }
        return nil
    }

    /// What the push's delivery does with it. 429 (`TooManyRequests` for one device token,
    /// `TooManyProviderTokenUpdates`) and 5xx (`InternalServerError`, `ServiceUnavailable`,
    /// `Shutdown`) are tried again after `busyRetry`, much later than a dropped connection,
    /// or after the `Retry-After` APNs gave. `BadDeviceToken`
    /// reaches here only after the other environment was tried too (see `APNsPushGateway`).
    func deviceAnswer(busyRetry: Duration) -> DevicePushAnswer {
        switch self {
        case .noAnswer(let error):
            return .later(error)
        case .unsigned(let error):
            return .refused("signing the provider token failed: \(error)")
        case .answered(let status, let reason, let retryAfter):
            switch (status, reason) {
            case (200, _): return .accepted
            case (410, _), (400, "Unregistered"), (400, "BadDeviceToken"): return .deadToken(reason)
            // The token was signed anew (`APNsTeam.post` dropped the stale one).
            case (403, "ExpiredProviderToken"): return .later(reason)
            case (429, _), (500..., _): return .later(reason, retryAfter: retryAfter ?? busyRetry)
            default: return .refused(reason)
            }
        }
    }
}
