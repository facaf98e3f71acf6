import Logging
import SwitchboardCore
import SwitchboardHooks

/// A vendor provider's accounts (one per `deviceProfile`, as LeanCloud's mixed push had apps
/// with several configure them), each with its own tries, all counted in the vendor's
/// `switchboard_push_<service>_total`. A push goes device by device with the account the
/// device's profile picks, one queued job per account; devices whose profile names no account
/// here are counted `other_team` (as APNs counts a team it has no key for) and not sent.
struct VendorPushAccounts<Settings: VendorPushSettings>: Sendable {
    struct Account: Sendable {
        let index: Int
        let settings: Settings
        let delivery: DevicePushDelivery
    }

    private let accounts: PushAccounts<Account>
    private let anyDelivery: DevicePushDelivery

    /// - Parameters:
    ///   - service: for logs and metrics: `Xiaomi` counts in `switchboard_push_xiaomi_total`.
    init(
        service: String, settings: [Settings], store: any PushDeviceStore, queue: WorkQueue, metrics: HookMetrics, logger: Logger
    ) throws {
        let accounts = settings.enumerated().map { index, settings in
            Account(
                index: index, settings: settings,
                delivery: DevicePushDelivery(
                    service: service, attempts: settings.common.attempts, firstRetry: settings.common.firstRetry, store: store, queue: queue, metrics: metrics, logger: logger
                )
            )
        }
        guard let made = PushAccounts(accounts.map { (profile: $0.settings.common.profile, account: $0) }) else { throw ConfigError("push.\(service.lowercased()): no account") }
        self.accounts = made
        anyDelivery = made.defaultAccount.delivery
    }

    /// Queues the notice's devices and sends each with `post`, answered as the vendor answered.
    func push(_ notice: PushNotice, post: @escaping @Sendable (Settings, String) async -> DevicePushAnswer) async {
        var byAccount: [Int: (account: Account, tokens: [String])] = [:]
        var unknown = 0
        for device in notice.devices.values.joined() {
            guard let account = accounts.account(for: device.profile) else {
                unknown += 1
                continue
            }
            byAccount[account.index, default: (account, [])].tokens.append(device.token)
        }
        if unknown > 0 {
            anyDelivery.count(.otherTeam, unknown)
            anyDelivery.logger.warning(
                "\(anyDelivery.service) push not sent: no account for the device's profile", metadata: ["devices": "\(unknown)", "message": "\(notice.messageID)"]
            )
        }
        for (account, tokens) in byAccount.values {
            await account.delivery.submit(devices: tokens.count, messageID: notice.messageID) {
                await withTaskGroup(of: Void.self) { group in
                    for token in tokens {
                        group.addTask {
                            await account.delivery.deliver(to: token, messageID: notice.messageID, sentAt: notice.timestamp) {
                                await post(account.settings, token)
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A maker's account settings: its own keys, and `common`, what every maker's account has.
protocol VendorPushSettings: Sendable {
    var common: VendorAccountSettings { get set }
}
