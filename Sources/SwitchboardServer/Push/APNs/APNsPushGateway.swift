import Foundation
import Logging
import SwitchboardCore
import SwitchboardHooks

/// The `apns` push provider: sends the iOS devices `PushRouter` hands it a push each over
/// HTTP/2 with token authentication; queued, tried again and counted by `DevicePushDelivery`
/// (`switchboard_push_apns_total`). Follows Apple's "Sending notification requests to APNs",
/// "Generating a remote notification" (payload sizes) and "Handling notification responses
/// from APNs" (developer.apple.com/documentation/usernotifications):
/// - A 410, `Unregistered`, or a `BadDeviceToken` in both environments removes the token;
///   `BadDeviceToken` in the environment the push's `_profile` chose is first tried in the
///   other, as a development build's token is "bad" in production and the reverse, and the
///   environment that took it is used for the token from then on.
/// - `DeviceTokenNotForTopic` (another app's token) is counted rejected, logged once, and the
///   token gets no more of this topic's pushes.
/// - A payload over 4 KB (5 KB for VoIP) is not sent: `too_large`.
/// - `ExpiredProviderToken` signs a new provider token and tries again; 429 and 5xx are tried
///   again a minute apart (`busyRetry`), much later than a failed connection, and their
///   waits hold no queue worker.
/// A push goes with the key of the team its `_apns_team_id` names, else the first team's; one
/// naming a team without a key here is not sent (`other_team`).
struct APNsPushGateway: PushGateway {
    let teams: [String: APNsTeam]
    let defaultTeam: APNsTeam
    let memory = APNsTokenMemory()

    init(teams settings: [APNsSettings], store: any PushDeviceStore, queue: WorkQueue, metrics: HookMetrics, logger: Logger) throws {
        let teams = try settings.map { settings in
            try APNsTeam(
                settings: settings,
                delivery: DevicePushDelivery(
                    service: "APNs", attempts: settings.attempts, firstRetry: settings.firstRetry, store: store, queue: queue, metrics: metrics, logger: logger
                )
            )
        }
        guard let first = teams.first else { throw ConfigError("push.apns: no team") }
        defaultTeam = first
        self.teams = Dictionary(teams.map { ($0.settings.teamID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func push(_ notice: PushNotice) async {
        let devices = notice.devices.values.flatMap { $0.map(\.token) }
        guard !devices.isEmpty else { return }
        guard let team = notice.apnsTeamID.map({ teams[$0] }) ?? defaultTeam else {
            defaultTeam.delivery.count(.otherTeam, devices.count)
            return
        }
        // Counted rejected when APNs said so; not pushed, nor counted, again.
        let tokens = devices.filter { !memory.isNotForTopic($0, topic: team.settings.topic) }
        guard !tokens.isEmpty else { return }
        await team.delivery.submit(devices: tokens.count, messageID: notice.messageID) { await send(notice, to: tokens, as: team) }
    }

    private func send(_ notice: PushNotice, to tokens: [String], as team: APNsTeam) async {
        var badges: [String: Int] = [:]
        if APNsNotification.incrementsBadge(notice.payload) {
            do {
                badges = try await team.delivery.store.countBadges(tokens: tokens)
            } catch {
                team.delivery.logger.error("badge counts unavailable; pushing a badge of 1", metadata: ["error": "\(error)"])
            }
        }
        let environment: APNsEnvironment = notice.profile == "dev" ? .development : .production
        let notifications = tokens.map { (token: $0, notification: APNsNotification(payload: notice.payload, sentAt: notice.timestamp, badge: badges[$0] ?? 1)) }
        let tooLarge = notifications.filter(\.notification.isTooLarge)
        if let example = tooLarge.first?.notification {
            team.delivery.count(.tooLarge, tooLarge.count)
            team.delivery.logger.warning(
                "APNs push not sent: its payload is larger than APNs takes",
                metadata: ["bytes": "\(example.encodedBody.count)", "devices": "\(tooLarge.count)", "message": "\(notice.messageID)"]
            )
        }
        await withTaskGroup(of: Void.self) { group in
            for (token, notification) in notifications where !notification.isTooLarge {
                group.addTask {
                    await team.delivery.deliver(to: token, messageID: notice.messageID, sentAt: notice.timestamp) {
                        await post(notification, to: token, preferring: environment, as: team)
                    }
                }
            }
        }
    }

    /// One try, in the environment the token is known to belong to, else `preferred`; a
    /// `BadDeviceToken` there is tried once in the other, whose answer decides, unless it
    /// could not judge the token (a 403: the team's key is not for that environment).
    private func post(_ notification: APNsNotification, to token: String, preferring preferred: APNsEnvironment, as team: APNsTeam) async -> DevicePushAnswer {
        let environment = memory.environment(of: token) ?? preferred
        var reply = await team.post(notification, to: token, in: environment)
        if reply.reason == "BadDeviceToken" {
            let other = await team.post(notification, to: token, in: environment.other)
            switch other {
            case .answered(status: 200, _, _):
                memory.remember(environment.other, of: token)
                team.delivery.logger.info("APNs device token belongs to the other environment", metadata: ["environment": "\(environment.other)"])
                reply = other
            case .answered(status: 403, _, _):
                break
            default:
                reply = other
            }
        }
        if reply.reason == "DeviceTokenNotForTopic", memory.markNotForTopic(token, topic: team.settings.topic) {
            team.delivery.logger.warning(
                "APNs device token is not for this app; it gets no more of its pushes", metadata: ["topic": "\(team.settings.topic)", "token": "\(token)"]
            )
        }
        return reply.deviceAnswer(busyRetry: team.settings.busyRetry)
    }
}
