/// A maker's account with the access token it sends with (Huawei's and Honor's OAuth token,
/// OPPO's and vivo's signed auth token).
struct VendorTokenAccount<Settings: VendorPushSettings>: VendorPushSettings {
    var settings: Settings
    let accessToken: PushAccessToken

    var common: VendorAccountSettings {
        get { settings.common }
        set { settings.common = newValue }
    }

    /// Each of `settings` with the token `makeToken` makes for it; settings with the same
    /// `sharedBy` key (one OAuth client configured under several profiles) share one token.
    static func accounts(
        _ settings: [Settings], sharedBy key: ((Settings) -> String)? = nil, makeToken: (Settings) -> PushAccessToken
    ) -> [Self] {
        var tokens: [String: PushAccessToken] = [:]
        return settings.map { settings in
            guard let key = key?(settings) else { return Self(settings: settings, accessToken: makeToken(settings)) }
            let token = tokens[key] ?? makeToken(settings)
            tokens[key] = token
            return Self(settings: settings, accessToken: token)
        }
    }
}

extension VendorTokenAccount {
    /// Sends with the account's access token: `send` answers what became of the push and
    /// whether the service refused the token, which is then dropped so the next try fetches
    /// another. No token, or no answer, is tried again later.
    func send(_ send: (_ accessToken: String) async throws -> (answer: DevicePushAnswer, accessTokenRefused: Bool)) async -> DevicePushAnswer {
        let token: String
        do {
            token = try await accessToken.token()
        } catch {
            return .later("no access token: \(error)")
        }
        do {
            let (answer, accessTokenRefused) = try await send(token)
            if accessTokenRefused { await accessToken.discard(token) }
            return answer
        } catch {
            return .later("\(error)")
        }
    }
}
