import Foundation
import SwitchboardJSON

/// What a message carries: text (often a JSON typed message) or raw bytes.
public enum MessageContent: Sendable, Equatable {
    case text(String)
    case binary([UInt8])

    public var byteCount: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .binary(let bytes): bytes.count
        }
    }

    /// `_lctype` of a typed message, 0 for anything else (LeanCloud's "no type"): text that is
    /// a JSON object with a whole number at its top-level `_lctype`. As LeanCloud's JavaScript
    /// SDK reads a type (`JSON.parse`, then `json._lctype === type`): `1.0` is 1, `"1"` is
    /// no type, an escaped key is the key it spells, the last of repeated keys counts.
    /// Read from every message stored, so the rest of the text is scanned, not built.
    public var typedMessageType: Int32 {
        guard case .text(let text) = self, text.utf8.first == UInt8(ascii: "{"),
              let type = (try? JSONValue.member("_lctype", ofObjectIn: text))?.int64Value,
              let narrowed = Int32(exactly: type)
        else { return 0 }
        return narrowed
    }
}

/// A message as stored and delivered.
public struct Message: Sendable, Equatable {
    public var id: String
    public var conversationID: String
    public var from: String
    public var content: MessageContent
    public var timestamp: Int64
    public var mentionAll: Bool
    public var mentionPids: [String]
    public var patchTimestamp: Int64?
    /// Whether the sender asked for receipts (`r`).
    public var wantsReceipt: Bool
    /// The sender's own id for the message (`dt`): the same message sent again after a lost
    /// ack carries the same one and is not stored twice.
    public var clientToken: String?
    /// Its place in the store's order, once stored: what a device's catch-up at login
    /// covers (up to a place) and live delivery then takes over (past it).
    public var seq: Int64?
    /// The members it was sent to when not to everyone (a system conversation's message to
    /// chosen subscribers): only they and the sender see it, live or in history.
    public var audience: [String]?

    public init(
        id: String, conversationID: String, from: String, content: MessageContent, timestamp: Int64,
        mentionAll: Bool = false, mentionPids: [String] = [], patchTimestamp: Int64? = nil, wantsReceipt: Bool = false,
        clientToken: String? = nil, seq: Int64? = nil, audience: [String]? = nil
    ) {
        self.id = id
        self.conversationID = conversationID
        self.from = from
        self.content = content
        self.timestamp = timestamp
        self.mentionAll = mentionAll
        self.mentionPids = mentionPids
        self.patchTimestamp = patchTimestamp
        self.wantsReceipt = wantsReceipt
        self.clientToken = clientToken
        self.seq = seq
        self.audience = audience
    }

    /// Recalled messages keep their id and time; their content becomes type -127.
    public var isRecalled: Bool { content.typedMessageType == -127 }
}
