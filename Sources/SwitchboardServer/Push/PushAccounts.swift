/// The accounts an app has with one push service, by the name devices pick them with (a
/// vendor's `deviceProfile`, as LeanCloud's mixed push had apps with several vendor accounts
/// configure them): a device with no profile, or an empty one, goes with the default account
/// (the one configured without a profile, else the first).
struct PushAccounts<Account: Sendable>: Sendable {
    private let named: [String: Account]
    let defaultAccount: Account

    /// `accounts` in config order, each with its profile (nil for the default account).
    init?(_ accounts: [(profile: String?, account: Account)]) {
        guard let first = accounts.first else { return nil }
        defaultAccount = accounts.first { $0.profile?.isEmpty ?? true }?.account ?? first.account
        named = Dictionary(accounts.compactMap { entry in entry.profile.map { ($0, entry.account) } }, uniquingKeysWith: { first, _ in first })
    }

    /// The account for a device's profile; nil for a profile this server has no account for.
    func account(for profile: String?) -> Account? {
        guard let profile, !profile.isEmpty else { return defaultAccount }
        return named[profile]
    }
}
