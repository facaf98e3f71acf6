import Crypto
import Foundation
import SwitchboardCore
import SwitchboardJSON

/// One push as vivo's single send takes it (`/message/send` in vivo's "PUSH-UPS-API接口文档"):
/// to a registration id, a notification with the title and text `AndroidPushContent.shown`
/// gives, cut to vivo's 40 and 100 characters (a Chinese character counts two), ringing and
/// vibrating when the data names a sound, else vibrating (`notifyType`, which only Android 8
/// and earlier heed); a system message of category IM by default; kept for what is left of
/// the seven days (vivo keeps 15 minutes to 7 days). The tap opens the account's intent
/// (`skipType` 4) with `AndroidPushContent.tapExtras` as the intent's extras
/// (`clientCustomMap`, which takes ten keys and 1024 characters: the extras that fit, in
/// order). `requestId` is the same for each try of one message to one device.
enum VivoMessage {
    static let titleLimit = 40
    static let contentLimit = 100
    static let customKeysLimit = 10
    static let customCharactersLimit = 1024

    /// Nil when the data has neither title nor alert: vivo shows nothing without them.
    /// - Parameters:
    ///   - sentAt: when the message was sent, in milliseconds; `now` likewise.
    static func body(to registrationID: String, _ content: AndroidPushContent, messageID: String, settings: VivoSettings, sentAt: Int64, now: Int64) -> JSONValue? {
        guard let shown = content.shown(defaultTitle: settings.common.defaultTitle) else { return nil }
        var body: [String: JSONValue] = [
            "appId": .int(settings.appID),
            "regId": .string(registrationID),
            "notifyType": content.namesSound ? 4 : 3,
            "title": .string(cut(shown.title, to: titleLimit)),
            "content": .string(cut(shown.text, to: contentLimit)),
            "timeToLive": .int(min(max((sentAt + PushNotice.lifetime - now) / 1000, 900), 7 * 24 * 3600)),
            "skipType": 4,
            "skipContent": .string(settings.clickIntent),
            "classification": .int(Int64(settings.classification)),
            "requestId": .string(requestID(messageID: messageID, registrationID: registrationID)),
            "pushMode": settings.testPush ? 1 : 0,
        ]
        if !settings.category.isEmpty { body["category"] = .string(settings.category) }
        let custom = customMap(content.tapExtras)
        if !custom.isEmpty { body["clientCustomMap"] = .object(custom) }
        return .object(body)
    }

    /// 64 hex digits, vivo's longest request id, from the message and the device.
    static func requestID(messageID: String, registrationID: String) -> String {
        SHA256.hash(data: Data((messageID + "\n" + registrationID).utf8)).map { String(format: "%02x", $0) }.joined()
    }

    private static func customMap(_ extras: [(key: String, value: String)]) -> [String: JSONValue] {
        var map: [String: JSONValue] = [:]
        var characters = 0
        for (key, value) in extras where map.count < customKeysLimit {
            guard characters + key.count + value.count <= customCharactersLimit else { continue }
            characters += key.count + value.count
            map[key] = .string(value)
        }
        return map
    }

    /// `text` within `limit` of vivo's characters: two for anything beyond ASCII.
    private static func cut(_ text: String, to limit: Int) -> String {
        var width = 0
        return String(text.prefix(while: { character in
            width += character.isASCII ? 1 : 2
            return width <= limit
        }))
    }
}
