import Foundation
import SwitchboardWire
import Testing

/// All three phone SDKs keep an idle connection alive with WebSocket pings alone, every 180 s
/// (swift-sdk `Sources/RTM/RTMConnection.swift` 242-243 and 354-371; objc-sdk
/// `AVOS/Sources/Realtime/IM/Connection/LCRTMConnection.m` 274-275 and 372-390; java-unified-sdk
/// `realtime/.../websocket/HeartBeatPolicy.java` 23-38), so a ping is activity like any frame.
@Suite struct PingKeepAliveTests {
    /// Idle timeout 2 s: a client that only pings for twice that stays connected, and then
    /// still receives.
    @Test func aClientThatOnlyPingsStaysConnectedAndReceives() async throws {
        let server = try await TestServer.start { $0.idleTimeoutSeconds = 2 }
        let sdk = PhoneSDK.android
        let codec = FrameCodec(subprotocol: sdk.subprotocol)
        let port = server.port, appID = server.config.appID

        let pinged = WatchedValue(false)
        async let received = RawWebSocket.onThread { () throws -> GenericCommand? in
            let socket = try RawWebSocket(port: port)
            var open = sdk.open("bob", appID: appID, device: "bob-installation")
            open.i = 1
            try socket.send(open, codec: codec)
            guard let opened = try socket.receiveCommand(codec: codec), opened.op == .opened else {
                throw RawWebSocket.Failure(description: "bob did not log in")
            }
            let until = Date().addingTimeInterval(4.5)
            while Date() < until {
                try socket.send([RawWebSocket.Frame(opcode: RawWebSocket.Frame.ping, payload: [])])
                guard let pong = try socket.receive(), pong.opcode == RawWebSocket.Frame.pong else {
                    throw RawWebSocket.Failure(description: "closed while pinging")
                }
                Thread.sleep(forTimeInterval: 0.4)
            }
            pinged.update { $0 = true }
            while let command = try socket.receiveCommand(codec: codec) {
                if command.cmd == .direct { return command }
            }
            return nil
        }
        _ = await pinged.wait(timeout: .seconds(20)) { done in done ? true : nil }
        // Only now: a test client that does not ping would itself be idle past the timeout.
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        let sent = try await alice.sendText("still there?", cid: cid)
        let message = try await received
        #expect(message?.cmd == .direct && message?.directMessage.id == sent.uid)
        try await server.stop()
    }
}
