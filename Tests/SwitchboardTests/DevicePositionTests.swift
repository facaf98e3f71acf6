import SwitchboardWire
import Testing

/// What a device has still to receive is what follows its position in each conversation (the
/// last message it acknowledged), stored after its client joined and after its first login.
@Suite struct DevicePositionTests {
    /// Logs `clientID` in from `device` and out again, so that the device is known.
    private func introduce(_ clientID: String, device: String, to server: CoreHarness) async throws {
        let client = try await server.login(clientID, tag: device)
        client.close()
        await client.closed()
    }

    /// The ids of the messages a fresh login from `device` receives in its catch-up.
    private func catchUp(of clientID: String, device: String, on server: CoreHarness) async throws -> (CoreClient, [String]) {
        let client = try await server.login(clientID, tag: device)
        try await client.awaitHandled()
        return (client, client.received { $0.cmd == .direct }.map(\.directMessage.id))
    }

    /// Sends `acks`, waits until they are handled, and logs out.
    private func acknowledge(_ acks: GenericCommand..., on client: CoreClient) async throws {
        for ack in acks { client.send(ack) }
        try await client.awaitHandled()
        client.close()
        await client.closed()
    }

    @Test func aLoginReceivesWhatFollowsTheDevicesPositionInEachConversation() async throws {
        let server = try await CoreHarness.start()
        try await introduce("bob", device: "phone", to: server)
        let alice = try await server.login("alice")
        let pair = try await alice.startConversation(members: ["bob"])
        let group = try await alice.startConversation(members: ["bob", "carol"])
        let first = try await alice.sendText("one", cid: pair)
        let second = try await alice.sendText("two", cid: pair)
        let third = try await alice.sendText("three", cid: pair)
        let inGroup = try await alice.sendText("to the group", cid: group)

        let (phone, all) = try await catchUp(of: "bob", device: "phone", on: server)
        #expect(all == [first.uid, second.uid, third.uid, inGroup.uid])
        // The JS SDK's range up to the second message; another SDK's ids for the group's.
        try await acknowledge(.ack(cid: pair, from: first.t, to: second.t), .ack(ids: [inGroup.uid]), on: phone)

        let (again, rest) = try await catchUp(of: "bob", device: "phone", on: server)
        #expect(rest == [third.uid])
        try await acknowledge(.ack(ids: [third.uid]), on: again)
        #expect(try await catchUp(of: "bob", device: "phone", on: server).1.isEmpty)
        await server.stop()
    }

    @Test func anAckForAnEarlierRangeDoesNotMoveThePositionBack() async throws {
        let server = try await CoreHarness.start()
        try await introduce("bob", device: "phone", to: server)
        let alice = try await server.login("alice")
        let pair = try await alice.startConversation(members: ["bob"])
        let first = try await alice.sendText("one", cid: pair)
        let second = try await alice.sendText("two", cid: pair)
        let (phone, _) = try await catchUp(of: "bob", device: "phone", on: server)
        try await acknowledge(.ack(ids: [second.uid]), .ack(cid: pair, from: first.t, to: first.t), on: phone)
        #expect(try await catchUp(of: "bob", device: "phone", on: server).1.isEmpty)
        await server.stop()
    }

    @Test func aMemberReceivesOnlyWhatWasStoredAfterItJoined() async throws {
        let server = try await CoreHarness.start()
        try await introduce("bob", device: "phone", to: server)
        let alice = try await server.login("alice")
        let group = try await alice.startConversation(members: ["carol"])
        _ = try await alice.sendText("before bob joined", cid: group)
        _ = try await alice.request(.conversation(.add, cid: group, members: ["bob"]))
        let after = try await alice.sendText("after bob joined", cid: group)
        #expect(try await catchUp(of: "bob", device: "phone", on: server).1 == [after.uid])
        await server.stop()
    }

    @Test func aDeviceReceivesOnlyWhatWasStoredAfterItsFirstLogin() async throws {
        let server = try await CoreHarness.start()
        try await introduce("bob", device: "phone", to: server)
        let alice = try await server.login("alice")
        let pair = try await alice.startConversation(members: ["bob"])
        let before = try await alice.sendText("before the laptop", cid: pair)
        try await introduce("bob", device: "laptop", to: server)
        let after = try await alice.sendText("after the laptop", cid: pair)
        #expect(try await catchUp(of: "bob", device: "laptop", on: server).1 == [after.uid])
        #expect(try await catchUp(of: "bob", device: "phone", on: server).1 == [before.uid, after.uid])
        await server.stop()
    }
}
