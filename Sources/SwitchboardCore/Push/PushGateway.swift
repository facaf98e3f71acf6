import Logging
import SwitchboardJSON

/// A push the core decided on for members who were offline when a message arrived.
public struct PushNotice: Sendable, Equatable {
    public var conversationID: String
    public var messageID: String
    public var from: String
    public var timestamp: Int64
    public var recipients: [String]
    /// The payload chosen by `_receiversOffline` or the sender's `pushData`; nil leaves it
    /// to the gateway's template.
    public var payload: JSONValue?

    public init(conversationID: String, messageID: String, from: String, timestamp: Int64, recipients: [String], payload: JSONValue?) {
        self.conversationID = conversationID
        self.messageID = messageID
        self.from = from
        self.timestamp = timestamp
        self.recipients = recipients
        self.payload = payload
    }
}

/// Where push decisions go: a push provider, or a log.
public protocol PushGateway: Sendable {
    func push(_ notice: PushNotice) async
}

/// Writes each push decision to the server log; the default until a provider is configured.
public struct LogPushGateway: PushGateway {
    let logger: Logger

    public init(logger: Logger) {
        self.logger = logger
    }

    public func push(_ notice: PushNotice) async {
        logger.info("push", metadata: [
            "conversation": "\(notice.conversationID)", "message": "\(notice.messageID)",
            "recipients": "\(notice.recipients)", "payload": "\(notice.payload?.jsonString ?? "template")",
        ])
    }
}
