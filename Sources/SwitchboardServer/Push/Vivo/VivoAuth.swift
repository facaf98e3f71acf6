import Crypto
import Foundation
import SwitchboardJSON

/// vivo Push's authentication (vivo "PUSH-UPS-API接口文档", 推送鉴权接口 `/message/auth`):
/// JSON with the appId, appKey, the time in milliseconds and `sign`, the MD5 of appId +
/// appKey + timestamp + appSecret in lower-case hex, answered with an `authToken` that lasts
/// a day; vivo asks senders to keep one and renew it every one to two hours, so it is
/// renewed after one.
enum VivoAuth {
    static let renewAfter: Duration = .seconds(3600)

    static func token(for settings: VivoSettings) -> PushAccessToken {
        PushAccessToken { try await fetch(settings) }
    }

    static func sign(appID: Int64, appKey: String, timestamp: Int64, appSecret: String) -> String {
        Insecure.MD5.hash(data: Data((String(appID) + appKey + String(timestamp) + appSecret).utf8)).map { String(format: "%02x", $0) }.joined()
    }

    private static func fetch(_ settings: VivoSettings) async throws -> PushAccessToken.Issued {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let body: JSONValue = [
            "appId": .int(settings.appID), "appKey": .string(settings.appKey), "timestamp": .int(now),
            "sign": .string(sign(appID: settings.appID, appKey: settings.appKey, timestamp: now, appSecret: settings.appSecret)),
        ]
        let response = try await settings.common.post("message/auth", contentType: "application/json", body: body.jsonString)
        let answer = try? JSONValue(parsing: response.body)
        guard response.status == 200, answer?["result"]?.int64Value == 0, let token = answer?["authToken"]?.stringValue else {
            throw PushAuthRefused(service: "vivo", status: response.status, body: response.body)
        }
        return .init(token: token, renewAfter: renewAfter)
    }
}
