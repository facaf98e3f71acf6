import Crypto
import Foundation
import SwitchboardJSON

/// OPPO Push's authentication (OPPO open platform, "鉴权", `/server/v1/auth`): a form with
/// the AppKey, the time in milliseconds and `sign`, the SHA-256 of AppKey + timestamp +
/// MasterSecret in lower-case hex, answered with an `auth_token` that lasts 24 hours from its
/// `create_time`. It is renewed ten minutes before then.
enum OPPOAuth {
    static let lifetime: Duration = .seconds(24 * 3600)
    static let margin: Duration = .seconds(600)

    static func token(for settings: OPPOSettings) -> PushAccessToken {
        PushAccessToken { try await fetch(settings) }
    }

    static func sign(appKey: String, timestamp: Int64, masterSecret: String) -> String {
        SHA256.hash(data: Data((appKey + String(timestamp) + masterSecret).utf8)).map { String(format: "%02x", $0) }.joined()
    }

    private static func fetch(_ settings: OPPOSettings) async throws -> PushAccessToken.Issued {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let response = try await settings.common.post("server/v1/auth", contentType: "application/x-www-form-urlencoded", body: FormURLEncoded.body([
            ("app_key", settings.appKey), ("timestamp", String(now)),
            ("sign", sign(appKey: settings.appKey, timestamp: now, masterSecret: settings.masterSecret)),
        ]))
        let answer = try? JSONValue(parsing: response.body)
        guard response.status == 200, answer?["code"]?.int64Value == 0, let token = answer?["data"]?["auth_token"]?.stringValue else {
            throw PushAuthRefused(service: "OPPO", status: response.status, body: response.body)
        }
        // A token OPPO made earlier and hands out again expires 24 hours after it was made.
        let age = answer?["data"]?["create_time"]?.int64Value.map { Duration.milliseconds(max(now - $0, 0)) } ?? .zero
        let left = max(lifetime - age, .zero)
        return .init(token: token, renewAfter: max(left - margin, left / 2))
    }
}
