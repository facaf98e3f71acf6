import Foundation
import SwitchboardServer
import SwitchboardWire
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A client that vanishes without a WebSocket close frame (its app killed, its network
/// gone) sends a FIN or a reset: its session ends then, not when the idle sweep finds it.
/// Every server here waits ten minutes before calling a connection idle, so only noticing
/// the drop itself can pass these tests.
@Suite struct DroppedConnectionTests {
    private static let codec = FrameCodec(subprotocol: .protobuf3)
    private static let patience = "limits: { idleTimeoutSeconds: 600, loginTimeoutSeconds: 600 }"

    private static func patient(_ config: inout ServerConfig) {
        config.idleTimeoutSeconds = 600
        config.loginTimeoutSeconds = 600
    }

    /// Logs `clientID` in over a raw socket, sends `then` (if any) and waits for its reply,
    /// then drops the connection `how`. After a FIN the socket stays open (and is returned,
    /// for the caller to close): what the server writes to it goes through as it would to a
    /// phone whose network died, so the server can only know from the FIN.
    private static func loginThenDrop(
        _ clientID: String, port: Int, appID: String, deviceID: String? = nil, then command: GenericCommand? = nil,
        _ how: RawWebSocket.Drop
    ) async throws -> Int32? {
        try await RawWebSocket.onThread {
            let socket = try RawWebSocket(port: port, subprotocol: "lc.protobuf2.3")
            var open = GenericCommand.open(clientID, appID: appID)
            open.i = 1
            if let deviceID { open.sessionMessage.deviceID = deviceID }
            try socket.send(open, codec: codec)
            guard try socket.receiveCommand(codec: codec)?.op == .opened else { throw TestClient.Timeout(description: "login failed") }
            if var command {
                command.i = 2
                try socket.send(command, codec: codec)
                while let reply = try socket.receiveCommand(codec: codec), reply.i != 2 {}
            }
            socket.drop(how)
            return how == .endOfInput ? socket.releaseSocket() : nil
        }
    }

    @Test(arguments: [RawWebSocket.Drop.endOfInput, .reset])
    func aDroppedClientsWillArrivesAtOnce(_ how: RawWebSocket.Drop) async throws {
        let server = try await TestServer.start(Self.patient)
        let bob = try await server.login("bob")
        let cid = try await bob.startConversation(members: ["alice"])
        var will = GenericCommand.text("alice is gone", cid: cid)
        will.directMessage.will = true
        let halfOpen = try await Self.loginThenDrop("alice", port: server.port, appID: server.config.appID, then: will, how)
        defer { halfOpen.map { _ = close($0) } }

        // Far less than the ten minutes the idle sweep would take, whatever the machine's load.
        let received = try await bob.nextMessage(timeout: .seconds(15))
        #expect(received.msg == "alice is gone" && received.fromPeerID == "alice")
        #expect(try await !bob.isOnline("alice"))
        try await server.stop()
    }

    @Test(arguments: [RawWebSocket.Drop.endOfInput, .reset])
    func aMessageRightAfterTheDropIsPushed(_ how: RawWebSocket.Drop) async throws {
        let push = RecordingPushGateway()
        let server = try await TestServer.start(push: push, Self.patient)
        try await server.registerDevice("alice", token: "alices-phone", deviceID: "phone")
        let bob = try await server.login("bob")
        let cid = try await bob.startConversation(members: ["alice"])
        let halfOpen = try await Self.loginThenDrop("alice", port: server.port, appID: server.config.appID, deviceID: "phone", how)
        defer { halfOpen.map { _ = close($0) } }

        // Sent once the server has heard of the drop (within seconds, far less than the idle
        // sweep's ten minutes).
        try await bob.waitUntilOffline("alice")
        let ack = try await bob.sendText("are you there?", cid: cid)
        let notice = try await push.next(timeout: .seconds(15))
        #expect(notice.messageID == ack.uid && notice.recipients == ["alice"])
        try await server.stop()
    }

    /// Connections opened and dropped in quick succession, half with a FIN and half with a
    /// reset, leave no descriptor behind once they are gone.
    @Test func descriptorsComeBackAfterRapidCycles() async throws {
        let server = try await ServerProcess.start(dataDirectory: TestServer.temporaryDirectory(), extraConfig: Self.patience)
        defer { server.stopIfRunning() }
        let before = try Self.openDescriptors(of: server.pid)
        try await RawWebSocket.onThread { [port = server.port] in
            for cycle in 0..<400 {
                try RawWebSocket(port: port).drop(cycle.isMultiple(of: 2) ? .endOfInput : .reset)
            }
        }
        var after = try Self.openDescriptors(of: server.pid)
        for _ in 0..<500 where after > before + 5 {
            try await Task.sleep(for: .milliseconds(30))
            after = try Self.openDescriptors(of: server.pid)
        }
        // A few may be the server's own (a database file, a script host starting).
        #expect(after <= before + 5, "\(before) descriptors before 400 dropped connections, \(after) after")
        _ = try await server.terminate()
    }

    private static func openDescriptors(of pid: pid_t) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
    }
}
