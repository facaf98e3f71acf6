import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import Prometheus
import SwitchboardCore
import SwitchboardHooks
import SwitchboardJSON

/// The `apns` push provider: sends the iOS devices `PushRouter` hands it a push each over
/// HTTP/2 with token authentication; queued, tried again and counted by `DevicePushDelivery`
/// (`switchboard_push_apns_total`). A 410, `BadDeviceToken` or `Unregistered` answer removes
/// the token; `ExpiredProviderToken` renews the provider token and tries again. A push goes
/// with the key of the team its `_apns_team_id` names, else the first team's; one naming a
/// team without a key here is not sent (`other_team`).
struct APNsPushGateway: PushGateway {
    /// One team's key, app and endpoints.
    struct Team: Sendable {
        let settings: APNsSettings
        let authToken: APNsAuthToken
        let delivery: DevicePushDelivery
    }

    let teams: [String: Team]
    let defaultTeam: Team

    init(teams settings: [APNsSettings], store: any MessageStore, queue: WorkQueue, metrics: HookMetrics, logger: Logger) throws {
        let teams = try settings.map { settings in
            Team(
                settings: settings,
                authToken: try APNsAuthToken(pem: String(contentsOfFile: settings.keyFile, encoding: .utf8), keyID: settings.keyID, teamID: settings.teamID),
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
        let tokens = notice.devices.values.flatMap { $0.map(\.token) }
        guard !tokens.isEmpty else { return }
        guard let team = notice.apnsTeamID.map({ teams[$0] }) ?? defaultTeam else {
            defaultTeam.delivery.count(.otherTeam, tokens.count)
            return
        }
        await team.delivery.submit(devices: tokens.count, messageID: notice.messageID) { await send(notice, to: tokens, as: team) }
    }

    private func send(_ notice: PushNotice, to tokens: [String], as team: Team) async {
        var badges: [String: Int] = [:]
        if APNsNotification.incrementsBadge(notice.payload) {
            do {
                badges = try await team.delivery.store.countBadges(tokens: tokens)
            } catch {
                team.delivery.logger.error("badge counts unavailable; pushing a badge of 1", metadata: ["error": "\(error)"])
            }
        }
        let base = notice.profile == "dev" ? team.settings.developmentURL : team.settings.productionURL
        await withTaskGroup(of: Void.self) { group in
            for token in tokens {
                let notification = APNsNotification(payload: notice.payload, sentAt: notice.timestamp, badge: badges[token] ?? 1)
                group.addTask {
                    await team.delivery.deliver(to: token, messageID: notice.messageID, sentAt: notice.timestamp) {
                        await post(notification, to: token, at: base, as: team)
                    }
                }
            }
        }
    }

    private func post(_ notification: APNsNotification, to token: String, at base: URL, as team: Team) async -> DevicePushAnswer {
        var request = HTTPClientRequest(url: base.appendingPathComponent("3/device/\(token)").absoluteString)
        request.method = .POST
        let authToken: String
        do {
            authToken = try team.authToken.token()
        } catch {
            return .refused("signing the provider token failed: \(error)")
        }
        request.headers.add(name: "authorization", value: "bearer \(authToken)")
        request.headers.add(name: "apns-topic", value: team.settings.topic)
        request.headers.add(name: "apns-push-type", value: notification.pushType)
        request.headers.add(name: "apns-priority", value: String(notification.priority))
        request.headers.add(name: "apns-expiration", value: String(notification.expiration))
        if let collapseID = notification.collapseID { request.headers.add(name: "apns-collapse-id", value: collapseID) }
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: notification.body.jsonString))
        do {
            let response = try await PushHTTPClients.client(trustRootsFile: team.settings.trustRootsFile).execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 64 * 1024)
            let reason = (try? JSONValue(parsing: String(buffer: body)))?["reason"]?.stringValue ?? "HTTP \(response.status.code)"
            switch response.status.code {
            case 200: return .accepted
            case 410: return .deadToken(reason)
            case 403 where reason == "ExpiredProviderToken":
                team.authToken.discard(authToken)
                return .later(reason)
            case 400 where reason == "BadDeviceToken" || reason == "Unregistered": return .deadToken(reason)
            case 429, 500...: return .later(reason)
            default: return .refused(reason)
            }
        } catch {
            return .later("\(error)")
        }
    }
}
