import SwitchboardCore

/// A vendor account that queues, tries and counts its own pushes.
protocol DeliveringAccount: Sendable {
    var delivery: DevicePushDelivery { get }
}

extension PushAccounts where Account: DeliveringAccount {
    /// Sends `notice` device by device with the account each device's `deviceProfile` picks,
    /// one queued job per account; devices whose profile names no account here are not sent
    /// and are counted `other_team`, as APNs counts a push for a team it has no key for.
    func push(_ notice: PushNotice, post: @escaping @Sendable (Account, _ token: String) async -> DevicePushAnswer) async {
        // Devices with the same profile share an account: no profile and an empty one both
        // mean the default account.
        var byProfile: [String: (account: Account, tokens: [String])] = [:]
        var unknown = 0
        for device in notice.devices.values.joined() {
            guard let account = account(for: device.profile) else {
                unknown += 1
                continue
            }
            byProfile[device.profile ?? "", default: (account, [])].tokens.append(device.token)
        }
        if unknown > 0 {
            let delivery = defaultAccount.delivery
            delivery.count(.otherTeam, unknown)
            delivery.logger.warning(
                "\(delivery.service) push not sent: no account for the device's profile", metadata: ["devices": "\(unknown)", "message": "\(notice.messageID)"]
            )
        }
        for (account, tokens) in byProfile.values {
            await account.delivery.submit(devices: tokens.count, messageID: notice.messageID) {
                await withTaskGroup(of: Void.self) { group in
                    for token in tokens {
                        group.addTask {
                            await account.delivery.deliver(to: token, messageID: notice.messageID, sentAt: notice.timestamp) {
                                await post(account, token)
                            }
                        }
                    }
                }
            }
        }
    }
}
