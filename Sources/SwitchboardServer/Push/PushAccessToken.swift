/// A credential a push service hands out for a while and wants on every send (an OAuth 2
/// access token: FCM's, Huawei's, Honor's; OPPO's and vivo's signed auth), kept until the
/// service's own time to renew it. Pushes
/// that need one while it is being fetched wait for that one fetch, so a burst of pushes asks
/// the service once; a token the service refused is discarded so the next push fetches
/// another. One type for every vendor: each gives only its `fetch`.
actor PushAccessToken {
    /// A fetched token and how long to use it (the vendor's lifetime, less its margin).
    struct Issued: Sendable {
        let token: String
        let renewAfter: Duration

        init(token: String, renewAfter: Duration) {
            self.token = token
            self.renewAfter = renewAfter
        }

        /// An OAuth 2 access token that expires in `expiresIn`: used until five minutes
        /// before (half its life when that is shorter), so no push goes with one about to lapse.
        init(token: String, expiresIn: Duration) {
            self.init(token: token, renewAfter: max(expiresIn - Self.margin, expiresIn / 2))
        }

        static let margin: Duration = .seconds(300)
    }

    private let fetch: @Sendable () async throws -> Issued
    private var current: (token: String, renewAt: ContinuousClock.Instant)?
    private var fetching: Task<(token: String, renewAt: ContinuousClock.Instant), any Error>?

    init(fetch: @escaping @Sendable () async throws -> Issued) {
        self.fetch = fetch
    }

    func token() async throws -> String {
        if let current, ContinuousClock.now < current.renewAt { return current.token }
        let task = fetching ?? Task { [fetch] in
            let started = ContinuousClock.now
            let issued = try await fetch()
            return (issued.token, started + issued.renewAfter)
        }
        fetching = task
        defer { fetching = nil }
        let fetched = try await task.value
        current = fetched
        return fetched.token
    }

    /// Forgets `token` after the service refused it; a token already renewed is kept, so
    /// pushes refused together fetch one new token, not one each.
    func discard(_ token: String) {
        if current?.token == token { current = nil }
    }
}
