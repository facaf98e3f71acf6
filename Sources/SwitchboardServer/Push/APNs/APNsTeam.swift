import AsyncHTTPClient
import Foundation
import NIOCore
import SwitchboardJSON

/// One Apple team: its key (or a key per environment), its app, its endpoints, and the
/// delivery that tries and counts its pushes.
struct APNsTeam: Sendable {
    let settings: APNsSettings
    let delivery: DevicePushDelivery
    private let productionToken: APNsAuthToken
    private let developmentToken: APNsAuthToken

    init(settings: APNsSettings, delivery: DevicePushDelivery) throws {
        self.settings = settings
        self.delivery = delivery
        productionToken = try Self.authToken(file: settings.keyFile, keyID: settings.keyID, teamID: settings.teamID)
        if let file = settings.developmentKeyFile, let keyID = settings.developmentKeyID {
            developmentToken = try Self.authToken(file: file, keyID: keyID, teamID: settings.teamID)
        } else {
            developmentToken = productionToken
        }
    }

    private static func authToken(file: String, keyID: String, teamID: String) throws -> APNsAuthToken {
        try APNsAuthToken(pem: String(contentsOfFile: file, encoding: .utf8), keyID: keyID, teamID: teamID)
    }

    /// Sends `notification` to `token` in `environment` once, with that environment's key.
    func post(_ notification: APNsNotification, to token: String, in environment: APNsEnvironment) async -> APNsReply {
        let key = environment == .production ? productionToken : developmentToken
        let authToken: String
        do {
            authToken = try key.token()
        } catch {
            return .unsigned("\(error)")
        }
        var request = HTTPClientRequest(url: settings.url(for: environment).appendingPathComponent("3/device/\(token)").absoluteString)
        request.method = .POST
        request.headers.add(name: "authorization", value: "bearer \(authToken)")
        request.headers.add(name: "apns-topic", value: settings.topic)
        request.headers.add(name: "apns-push-type", value: notification.pushType)
        request.headers.add(name: "apns-priority", value: String(notification.priority))
        request.headers.add(name: "apns-expiration", value: String(notification.expiration))
        if let collapseID = notification.collapseID { request.headers.add(name: "apns-collapse-id", value: collapseID) }
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: notification.encodedBody))
        do {
            let response = try await PushHTTPClients.client(trustRootsFile: settings.trustRootsFile).execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 64 * 1024)
            let status = Int(response.status.code)
            let reason = (try? JSONValue(parsing: String(buffer: body)))?["reason"]?.stringValue ?? "HTTP \(status)"
            // Signed anew for the next try; a token renewed meanwhile is kept.
            if status == 403, reason == "ExpiredProviderToken" { key.discard(authToken) }
            return .answered(status: status, reason: reason, retryAfter: RetryAfterHeader.duration(response.headers.first(name: "retry-after")))
        } catch {
            return .noAnswer("\(error)")
        }
    }
}
