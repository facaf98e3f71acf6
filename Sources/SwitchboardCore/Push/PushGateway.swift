import SwitchboardJSON

/// A push the core decided on for members who were offline when a message arrived.
public struct PushNotice: Sendable, Equatable {
    public var conversationID: String
    public var messageID: String
    public var from: String
    /// When the message was sent (milliseconds); pushes older than `lifetime` are dropped.
    public var timestamp: Int64
    public var recipients: [String]
    /// The recipients' registered devices, by client.
    public var devices: [String: [PushDevice]]
    /// What is pushed: the `_receiversOffline` hook's `pushMessage`, else the sender's
    /// `pushData`, else the config's template; without `_profile` and `_apns_team_id`.
    public var payload: JSONValue
    /// `_profile` and `_apns_team_id` from the payload, for the provider.
    public var profile: String?
    public var apnsTeamID: String?

    /// LeanCloud drops pushes it could not deliver within 7 days.
    public static let lifetime: Int64 = 7 * 24 * 3600 * 1000

    public init(
        conversationID: String, messageID: String, from: String, timestamp: Int64, recipients: [String],
        devices: [String: [PushDevice]] = [:], payload: JSONValue, profile: String? = nil, apnsTeamID: String? = nil
    ) {
        self.conversationID = conversationID
        self.messageID = messageID
        self.from = from
        self.timestamp = timestamp
        self.recipients = recipients
        self.devices = devices
        self.payload = payload
        self.profile = profile
        self.apnsTeamID = apnsTeamID
    }

    public func isExpired(at now: Int64) -> Bool {
        now - timestamp > Self.lifetime
    }

    /// The push as one JSON object: what the providers write and post.
    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "convId": .string(conversationID), "msgId": .string(messageID), "fromClientId": .string(from),
            "timestamp": .int(timestamp), "recipients": .strings(recipients), "payload": payload,
            "devices": .object(devices.mapValues { .strings($0.map(\.token)) }),
        ]
        if let profile { object["_profile"] = .string(profile) }
        if let apnsTeamID { object["_apns_team_id"] = .string(apnsTeamID) }
        return .object(object)
    }
}

/// Where push decisions go: a push provider, or a log.
public protocol PushGateway: Sendable {
    func push(_ notice: PushNotice) async
}
