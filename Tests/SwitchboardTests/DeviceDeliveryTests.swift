import Foundation
import Synchronization
import SwitchboardHooks
import SwitchboardWire
import Testing

/// Each device of a client has its own queue of missed messages and its own acknowledgements.
@Suite struct DeviceDeliveryTests {
    private func login(_ clientID: String, device: String, on server: TestServer) async throws -> TestClient {
        let client = try await server.connect()
        var open = GenericCommand.open(clientID, appID: server.config.appID)
        open.sessionMessage.deviceID = device
        let reply = try await client.request(open)
        guard reply.op == .opened else { throw TestClient.Timeout(description: "login failed: \(reply)") }
        return client
    }

    /// Acknowledges by id and waits until the server has taken the acks.
    private func acknowledge(_ ids: [String], on client: TestClient) async throws {
        client.send(.ack(ids: ids))
        try await client.awaitHandled()
    }

    private func logout(_ client: TestClient) async throws {
        client.close()
        try await client.waitUntilClosed()
    }

    @Test func aDeviceThatLogsInAfterAnotherAcknowledgedStillReceivesTheMessage() async throws {
        let server = try await TestServer.start()
        for device in ["phone", "laptop"] { try await logout(try await login("bob", device: device, on: server)) }
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        let sent = try await alice.sendText("for every device", cid: cid)

        let phone = try await login("bob", device: "phone", on: server)
        #expect(try await phone.nextMessage().id == sent.uid)
        try await acknowledge([sent.uid], on: phone)
        try await logout(phone)

        let laptop = try await login("bob", device: "laptop", on: server)
        #expect(try await laptop.nextMessage().id == sent.uid)
        try await acknowledge([sent.uid], on: laptop)

        // The phone acknowledged it: it is not in the phone's catch-up.
        let phoneAgain = try await login("bob", device: "phone", on: server)
        try await phoneAgain.awaitHandled()
        #expect(phoneAgain.received { $0.cmd == .direct }.isEmpty)
        try await server.stop()
    }

    @Test func theFirstDeviceTakesWhatWasQueuedBeforeTheClientEverLoggedIn() async throws {
        let server = try await TestServer.start()
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["carol"])
        let sent = try await alice.sendText("before carol ever logged in", cid: cid)
        let tablet = try await login("carol", device: "tablet", on: server)
        #expect(try await tablet.nextMessage().id == sent.uid)
        try await server.stop()
    }

    /// Logging in while messages arrive: each message reaches the device once, through its
    /// catch-up or live, in the order sent, and never again once acknowledged. The device logs
    /// in again and again while they are sent, until the last one has come. (Not every one
    /// need come: a login keeps only the newest 20 a conversation queued for the device.)
    @Test func aDeviceLoggingInWhileMessagesArriveGetsEachOnceInOrder() async throws {
        let server = try await TestServer.start()
        try await logout(try await login("bob", device: "phone", on: server))
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        let count = 600
        let allSent = WatchedValue<ContinuousClock.Instant?>(nil)
        let sending = Task {
            for number in 0..<count { try await alice.sendText("m\(number)", cid: cid) }
            allSent.update { $0 = .now }
        }
        var acknowledged = Set<String>()
        var duplicates: [String] = []
        var outOfOrder = 0
        var lastCame = false
        // Only a failing run (the last message never comes) waits this long after the last
        // was sent (sending 600 takes a minute or more on PostgreSQL under the full suite), or
        // this long in all when sending failed.
        let giveUp = ContinuousClock.now + .seconds(300)
        while !lastCame, ContinuousClock.now < giveUp, allSent.value.map({ ContinuousClock.now < $0 + .seconds(30) }) ?? true {
            let phone = try await login("bob", device: "phone", on: server)
            // Its catch-up in full, and what came live until a later command was answered.
            try await phone.awaitHandled()
            let received = phone.received { $0.cmd == .direct }.map(\.directMessage)
            let numbers = received.compactMap { Int($0.msg.dropFirst()) }
            outOfOrder += zip(numbers, numbers.dropFirst()).filter { $0 >= $1 }.count
            lastCame = lastCame || numbers.contains(count - 1)
            var seen = Set<String>()
            for id in received.map(\.id) where !seen.insert(id).inserted || acknowledged.contains(id) { duplicates.append(id) }
            try await acknowledge(Array(seen), on: phone)
            acknowledged.formUnion(seen)
            try await logout(phone)
        }
        try await sending.value
        #expect(lastCame)
        #expect(duplicates.isEmpty, "\(duplicates.count) delivered twice")
        #expect(outOfOrder == 0)
        try await server.stop()
    }

    /// A device that logs in again while its previous connection's last commands, an ack
    /// among them, are still being handled gets its catch-up after them: what it
    /// acknowledged there does not come again. The previous connection sent a slow command
    /// (a hook takes a second over it), then the ack, then its FIN.
    @Test func anAckStillBeingHandledOnTheDevicesLastConnectionHoldsItsNextCatchUp() async throws {
        let slow = ScriptedPlugin(name: "slow", budget: .seconds(10)) { request in
            if request.content == "slow" { try await Task.sleep(for: .seconds(1)) }
            return .passThrough
        }
        let server = try await TestServer.start(plugins: [slow])
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["bob"])
        let sent = try await alice.sendText("acknowledged once", cid: cid)

        let codec = FrameCodec(subprotocol: .protobuf3)
        let halfOpen = try await RawWebSocket.onThread { [port = server.port, appID = server.config.appID] in
            // Where the catch-up is pushed at login.
            let socket = try RawWebSocket(port: port, subprotocol: Subprotocol.protobuf1.rawValue)
            var open = GenericCommand.open("bob", appID: appID)
            open.i = 1
            open.sessionMessage.deviceID = "phone"
            try socket.send(open, codec: codec)
            while let command = try socket.receiveCommand(codec: codec), command.directMessage.id != sent.uid {}
            var slowSend = GenericCommand.text("slow", cid: cid)
            slowSend.i = 2
            try socket.send(slowSend, codec: codec)
            try socket.send(.ack(ids: [sent.uid]), codec: codec)
            socket.drop(.endOfInput)
            return socket.releaseSocket()
        }
        defer { close(halfOpen) }

        let phone = try await login("bob", device: "phone", on: server)
        try await phone.awaitHandled()
        #expect(phone.received { $0.cmd == .direct && $0.directMessage.id == sent.uid }.isEmpty)
        try await server.stop()
    }
}
