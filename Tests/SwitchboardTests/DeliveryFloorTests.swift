import Foundation
import SwitchboardCore
@testable import SwitchboardStore
import Testing

/// Messages to every member are found from a device's positions through their timestamps: a
/// message stamped before one stored earlier (its hooks took longer) must still reach every
/// device whose position is past that earlier one, whichever kind of position it is, and after
/// a restart too.
@Suite(.storeBlind) struct DeliveryFloorTests {
    private let t: Int64 = 1_700_000_000_000

    private func message(_ id: String, at timestamp: Int64) -> Message {
        Message(id: id, conversationID: "c1", from: "alice", content: .text(id), timestamp: timestamp)
    }

    private func conversation(members: [String]) -> Conversation {
        Conversation(
            id: "c1", kind: .normal, name: nil, creator: "alice", members: members, attributes: [:], uniqueKey: nil,
            createdAt: t, updatedAt: t
        )
    }

    @Test func aMessageStampedBeforeOneStoredEarlierReachesEveryPosition() async throws {
        let path = TestServer.temporaryDirectory() + "/switchboard.sqlite"
        let phone = DeviceAddress(clientID: "bob", key: "phone")
        let tablet = DeviceAddress(clientID: "bob", key: "tablet")
        let laptop = DeviceAddress(clientID: "carol", key: "laptop")
        do {
            let store = try SQLiteStore(path: path)
            _ = try await store.deviceSeen(phone, at: t)
            _ = try await store.deviceSeen(laptop, at: t)
            try await store.createConversation(conversation(members: ["alice", "bob"]))
            _ = try await store.append(message("first", at: t + 1_000), queueFor: .everyMember)
            // The phone acknowledges past it; the tablet logs in and carol joins after it.
            #expect(try await store.acknowledge(phone, messageIDs: ["first"]).map(\.id) == ["first"])
            _ = try await store.deviceSeen(tablet, at: t + 1_000)
            try await store.saveConversation(conversation(members: ["alice", "bob", "carol"]))
            _ = try await store.append(message("late", at: t + 100), queueFor: .everyMember)
        }
        let reopened = try SQLiteStore(path: path)
        _ = try await reopened.append(message("later", at: t + 50), queueFor: .everyMember)
        for device in [phone, tablet, laptop] {
            #expect(try await reopened.pendingMessages(for: device, seqs: 1...Int64.max, limit: 10).map(\.id) == ["late", "later"])
        }
        #expect(try await reopened.acknowledge(phone, messageIDs: ["later"]).map(\.id) == ["late", "later"])
        #expect(try await reopened.pendingMessages(for: phone, seqs: 1...Int64.max, limit: 10).isEmpty)
    }

    /// A database from before the floors: the upgrade measures the inversion of the messages
    /// already stored, so a position acknowledged past a message stamped later than one stored
    /// after it still gets that one.
    @Test func theUpgradeCountsTheInversionOfMessagesAlreadyStored() async throws {
        let path = try await earlierDatabase(
            upTo: "v21: client tokens looked up in memory",
            rows: aliceAndBobInC1(at: t) + """
                INSERT INTO message (id, conversation_id, sender, text, timestamp, to_every_member) VALUES
                    ('first', 'c1', 'alice', 'first', \(t + 1_000), 1), ('late', 'c1', 'alice', 'late', \(t + 100), 1);
                INSERT INTO device_position (client_id, device_key, conversation_id, acknowledged_seq) VALUES ('bob', 'phone', 'c1', 1);
                """
        )
        let store = try SQLiteStore(path: path)
        #expect(try await store.pendingMessages(for: DeviceAddress(clientID: "bob", key: "phone"), seqs: 1...Int64.max, limit: 10).map(\.id) == ["late"])
    }
}
