import Foundation
import SwitchboardWire
import Testing

/// LeanCloud's phone SDKs as the server meets them: the `session/open` each sends, and how
/// each takes what the server sends, read from their source. Paths are in leancloud/swift-sdk
/// (`Sources/`), leancloud/objc-sdk (`AVOS/Sources/`) and leancloud/java-unified-sdk
/// (`realtime/src/main/java/cn/leancloud/`).
enum PhoneSDK: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case swift, objectiveC, android

    var testDescription: String { rawValue }

    static let apple: [PhoneSDK] = [.swift, .objectiveC]

    /// `session/open`'s `configBitmap`.
    var configBitmap: Int64 {
        switch self {
        // patch, temporary conversations, transient acks, keep-notification, partial
        // failures, omitted peerId: RTM/IMClient.swift 154-170.
        case .swift: 0xBB
        // The same without keep-notification: Realtime/IM/Client/LCIMClient.m 200-204,
        // Realtime/IM/LCIMCommon_Internal.h 17-26.
        case .objectiveC: 0xAB
        // The same, and bind-installation on open: command/SessionControlPacket.java 43-50, 177-185.
        case .android: 0xAF
        }
    }

    /// The subprotocol it offers by default. All three offer only `lc.protobuf2.3`
    /// (RTM/RTMConnection.swift 186-189 and 808, Realtime/IM/Connection/LCRTMConnection.m
    /// 782-783, websocket/StandardWebSocketClient.java 38-45).
    var subprotocol: Subprotocol { .protobuf3 }

    /// The login the SDK sends for `clientID` on `device`: the Apple SDKs name the device by
    /// `deviceToken` (the APNs token, or a UUID until there is one) and never send
    /// `deviceId`; the Android SDK names it by `deviceId`, its installation id.
    func open(_ clientID: String, appID: String, device: String, tag: String? = nil) -> GenericCommand {
        var open = GenericCommand()
        open.cmd = .session
        open.op = .open
        open.appID = appID
        open.peerID = clientID
        open.sessionMessage.configBitmap = configBitmap
        if let tag { open.sessionMessage.tag = tag }
        switch self {
        case .swift:
            // RTM/IMClient.swift 1338-1370.
            open.sessionMessage.ua = "LeanCloud-Swift-SDK/17.11.0"
            open.sessionMessage.deviceToken = device
        case .objectiveC:
            // Realtime/IM/Client/LCIMClient.m 466-505.
            open.sessionMessage.ua = "LeanCloud-Objc-SDK/14.0.0"
            open.sessionMessage.deviceToken = device
        case .android:
            // command/SessionControlPacket.java 106-152; lastPatchTime is the time of a
            // first login (session/LCSession.java 450-461).
            open.sessionMessage.ua = "LeanCloud-Java-SDK/8.2.5"
            open.sessionMessage.deviceID = device
            open.sessionMessage.lastPatchTime = Int64(Date().timeIntervalSince1970 * 1000)
        }
        return open
    }

    /// Connects as the SDK does (on `subprotocol` unless told otherwise) and logs `clientID`
    /// in; the reply is `session/opened`.
    func login(
        _ clientID: String, on server: TestServer, device: String = UUID().uuidString.lowercased(), tag: String? = nil, subprotocol: Subprotocol? = nil
    ) async throws -> TestClient {
        let client = try await server.connect(subprotocol ?? self.subprotocol)
        var open = open(clientID, appID: server.config.appID, device: device, tag: tag)
        let serial = client.nextSerial()
        open.i = serial
        client.send(open)
        let reply = try await client.next(timeout: .seconds(5), "session/opened") { $0.hasI && $0.i == serial }
        guard reply.cmd == .session, reply.op == .opened, reply.peerID == clientID else {
            throw TestClient.Timeout(description: "\(self) login of \(clientID) failed: \(reply)")
        }
        return client
    }

    /// Whether the SDK hands `command`, which the server sent on its own (a push), to its IM
    /// client. A command with `i` is a reply whatever it says, and one with an `i` no request
    /// has is dropped (RTM/RTMConnection.swift 306-311 and 1032-1033,
    /// LCRTMConnection.m 433-442 and 1125-1126). The Apple SDKs then take only commands with
    /// `service` present and 2 (RTM/RTMConnection.swift 1034-1040, LCRTMConnection.m
    /// 1128-1146); the Android SDK reads `service` only to tell LiveQuery's apart
    /// (session/LCConnectionManager.java 394-402).
    func takesPush(_ command: GenericCommand) -> Bool {
        guard !command.hasI, Self.decodes(command) else { return false }
        switch self {
        case .swift, .objectiveC: return command.hasService && command.service == RealtimeService.instantMessaging
        case .android: return !(command.hasService && command.service == RealtimeService.liveQuery)
        }
    }

    /// Whether the Android SDK, handed `command` without a pending request for it, throws on
    /// its socket's thread, which drops the socket and reconnects (session/
    /// LCDefaultConnectionListener.java 148-156, 314, 519-520; Java-WebSocket's
    /// Draft_6455.processFrameBinary turns the exception into onError).
    static func androidDropsSocket(over command: GenericCommand) -> Bool {
        guard !command.hasI else { return false }
        switch (command.cmd, command.op) {
        case (.patch, .modified), (.conv, .results), (.conv, .shutupResult): return true
        default: return false
        }
    }

    /// Whether the SDKs decode `command` at all: all three parse strictly, so a frame missing
    /// one of proto2's required fields (an `ErrorCommand`'s `code` and `reason`, an
    /// `UnreadTuple`'s `cid` and `unread`, a `JsonObjectMessage`'s `data`) is dropped whole
    /// (RTM/RTMConnection.swift 1021, LCRTMConnection.m 1111-1116, im/WindTalker.java 90-97).
    static func decodes(_ command: GenericCommand) -> Bool {
        guard let bytes = try? command.serializedBytes(partial: true) as [UInt8] else { return false }
        return (try? GenericCommand(serializedBytes: bytes)) != nil
    }
}

extension TestClient {
    /// The next command the server pushes that `sdk` takes to its IM client.
    func nextPush(
        as sdk: PhoneSDK, timeout: Duration = .seconds(5), _ what: String, where matches: @escaping @Sendable (GenericCommand) -> Bool
    ) async throws -> GenericCommand {
        try await next(timeout: timeout, what) { sdk.takesPush($0) && matches($0) }
    }
}
