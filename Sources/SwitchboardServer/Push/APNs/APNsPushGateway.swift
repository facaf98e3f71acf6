import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import Prometheus
import SwitchboardCore
import SwitchboardHooks
import SwitchboardJSON

/// The `apns` push provider: sends each offline recipient's iOS devices (those whose token is
/// an APNs token, as LeanCloud's iOS SDKs send at login) a push over HTTP/2 with token
/// authentication, and hands the recipients it could not reach that way to `others`.
///
/// Pushes wait in a queue of their own and never hold up delivery. A 429 or 5xx answer is
/// tried again with doubling waits; a 410, `BadDeviceToken` or `Unregistered` removes the
/// token from the store; every answer is counted in `switchboard_push_apns_total` by outcome.
struct APNsPushGateway: PushGateway {
    let settings: APNsSettings
    let authToken: APNsAuthToken
    let store: any MessageStore
    let others: any PushGateway
    /// Bounded, dropping when full; run by a `WorkQueueService`.
    let queue: WorkQueue
    private let outcomes: [Outcome: Counter]
    let logger: Logger

    init(settings: APNsSettings, store: any MessageStore, others: any PushGateway, queue: WorkQueue, metrics: HookMetrics, logger: Logger) throws {
        self.settings = settings
        authToken = try APNsAuthToken(pem: String(contentsOfFile: settings.keyFile, encoding: .utf8), keyID: settings.keyID, teamID: settings.teamID)
        self.store = store
        self.others = others
        self.queue = queue
        outcomes = Dictionary(uniqueKeysWithValues: Outcome.allCases.map { outcome in
            (outcome, metrics.makeCounter(
                subsystem: "push", name: "apns_total", help: "APNs pushes by what became of them, one per device.", labels: [("outcome", outcome.rawValue)]
            ))
        })
        self.logger = logger
    }

    /// What became of one device's push.
    enum Outcome: String, CaseIterable {
        case sent, removedToken = "removed_token", rejected, failed, otherTeam = "other_team", dropped
    }

    func push(_ notice: PushNotice) async {
        var iOS: [(clientID: String, token: String)] = []
        var rest = notice
        rest.devices = [:]
        rest.recipients = []
        for clientID in notice.recipients {
            let tokens = notice.devices[clientID] ?? []
            let apnsTokens = tokens.filter(Self.isAPNsToken)
            if apnsTokens.isEmpty {
                rest.recipients.append(clientID)
                if !tokens.isEmpty { rest.devices[clientID] = tokens }
            } else {
                iOS += apnsTokens.map { (clientID, $0) }
            }
        }
        if !rest.recipients.isEmpty { await others.push(rest) }
        guard !iOS.isEmpty else { return }
        if let team = notice.apnsTeamID, team != settings.teamID {
            // `_apns_team_id` names a team whose key this server does not have.
            count(.otherTeam, iOS.count)
            return
        }
        let tokens = iOS.map(\.token)
        let queued = await queue.submit { await send(notice, to: tokens) }
        if !queued {
            count(.dropped, tokens.count)
            logger.warning("push dropped: the APNs queue is full", metadata: ["message": "\(notice.messageID)"])
        }
    }

    /// APNs device tokens are 32 bytes or more, sent by the SDKs as hex.
    static func isAPNsToken(_ token: String) -> Bool {
        token.utf8.count >= 64 && token.utf8.count % 2 == 0 && token.utf8.allSatisfy { Self.hexDigits.contains($0) }
    }

    private static let hexDigits = Set("0123456789abcdefABCDEF".utf8)

    private func send(_ notice: PushNotice, to tokens: [String]) async {
        var badges: [String: Int] = [:]
        if APNsNotification.incrementsBadge(notice.payload) {
            do {
                badges = try await store.countBadges(tokens: tokens)
            } catch {
                logger.error("badge counts unavailable; pushing a badge of 1", metadata: ["error": "\(error)"])
            }
        }
        let base = notice.profile == "dev" ? settings.developmentURL : settings.productionURL
        await withTaskGroup(of: Void.self) { group in
            for token in tokens {
                let notification = APNsNotification(payload: notice.payload, sentAt: notice.timestamp, badge: badges[token] ?? 1)
                group.addTask { await deliver(notification, to: token, at: base, messageID: notice.messageID, sentAt: notice.timestamp) }
            }
        }
    }

    private func deliver(_ notification: APNsNotification, to token: String, at base: URL, messageID: String, sentAt: Int64) async {
        var wait = settings.firstRetry
        for attempt in 1...max(settings.attempts, 1) {
            if ServerClock.wallMilliseconds() - sentAt > PushNotice.lifetime {
                count(.dropped)
                return
            }
            let answer = await post(notification, to: token, at: base)
            switch answer {
            case .accepted:
                count(.sent)
                return
            case .deadToken(let reason):
                count(.removedToken)
                logger.info("APNs device token removed", metadata: ["reason": "\(reason)", "message": "\(messageID)"])
                do { try await store.removeDevice(token: token) } catch {
                    logger.error("removing a dead device token failed", metadata: ["error": "\(error)"])
                }
                return
            case .refused(let reason):
                count(.rejected)
                logger.warning("APNs refused a push", metadata: ["reason": "\(reason)", "message": "\(messageID)"])
                return
            case .later(let reason):
                logger.warning("APNs push failed; trying again", metadata: ["reason": "\(reason)", "attempt": "\(attempt)", "message": "\(messageID)"])
            }
            guard attempt < settings.attempts else { break }
            do { try await Task.sleep(for: wait) } catch { break }
            wait *= 2
        }
        count(.failed)
        logger.error("APNs push given up", metadata: ["attempts": "\(settings.attempts)", "message": "\(messageID)"])
    }

    private enum Answer {
        case accepted
        case deadToken(String)
        case refused(String)
        case later(String)
    }

    private func post(_ notification: APNsNotification, to token: String, at base: URL) async -> Answer {
        var request = HTTPClientRequest(url: base.appendingPathComponent("3/device/\(token)").absoluteString)
        request.method = .POST
        do {
            request.headers.add(name: "authorization", value: "bearer \(try authToken.token())")
        } catch {
            return .refused("signing the provider token failed: \(error)")
        }
        request.headers.add(name: "apns-topic", value: settings.topic)
        request.headers.add(name: "apns-push-type", value: notification.pushType)
        request.headers.add(name: "apns-priority", value: String(notification.priority))
        request.headers.add(name: "apns-expiration", value: String(notification.expiration))
        if let collapseID = notification.collapseID { request.headers.add(name: "apns-collapse-id", value: collapseID) }
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: notification.body.jsonString))
        do {
            let response = try await APNsClients.client(trustRootsFile: settings.trustRootsFile).execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 64 * 1024)
            let reason = (try? JSONValue(parsing: String(buffer: body)))?["reason"]?.stringValue ?? "HTTP \(response.status.code)"
            switch response.status.code {
            case 200: return .accepted
            case 410: return .deadToken(reason)
            case 400 where reason == "BadDeviceToken" || reason == "Unregistered": return .deadToken(reason)
            case 429, 500...: return .later(reason)
            default: return .refused(reason)
            }
        } catch {
            return .later("\(error)")
        }
    }

    private func count(_ outcome: Outcome, _ devices: Int = 1) {
        outcomes[outcome]?.increment(by: Int64(devices))
    }
}
