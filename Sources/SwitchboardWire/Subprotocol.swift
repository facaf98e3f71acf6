/// The WebSocket subprotocols LeanCloud's SDKs offer, in the order we prefer them.
public enum Subprotocol: String, Sendable, CaseIterable {
    case protobuf3 = "lc.protobuf2.3"
    case protobuf2 = "lc.protobuf2.2"
    case protobuf1 = "lc.protobuf2.1"
    case base64 = "lc.proto2base64.3"
    case json = "lc.json.3"

    /// Picks our preferred protocol among those a client offers in `Sec-WebSocket-Protocol`
    /// (a comma-separated list). A client that offers none gets plain protobuf, as old SDKs expect.
    public static func negotiate(offered header: String?) -> Subprotocol? {
        guard let header, !header.isEmpty else { return .protobuf3 }
        let offered = Set(header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        return allCases.first { offered.contains($0.rawValue) }
    }

    /// How a client on this protocol learns at login of the messages it missed, as LeanCloud
    /// decided by the protocol's version (objc-sdk `LCIMCommon_Internal.h`: "use unread" is
    /// `lc.protobuf2.3`, without it `lc.protobuf2.1`; java-unified-sdk's `onlyPushCount`).
    /// `configBitmap` does not decide it: the Swift SDK sets its "keep-notification" bit on
    /// both versions, the Android and Objective-C SDKs on neither.
    public var missedMessages: MissedMessages {
        switch self {
        case .protobuf3, .base64, .json: .unreadCounts
        case .protobuf1, .protobuf2: .pushed
        }
    }

    /// How frames of this protocol travel.
    public var frameKind: FrameKind {
        switch self {
        case .protobuf1, .protobuf2, .protobuf3: .binary
        case .base64, .json: .text
        }
    }
}

/// Whether a subprotocol travels in binary or text WebSocket frames.
public enum FrameKind: Sendable {
    case binary
    case text
}

/// How a client learns at login of the messages it missed while offline.
public enum MissedMessages: Sendable {
    /// Each conversation's unread count and last message (`unread`); the app fetches the
    /// history itself, and its acks of what it fetched move its position.
    case unreadCounts
    /// The messages themselves, as `direct` with `offline` set.
    case pushed
}
