import Foundation
import SwitchboardCore
@testable import SwitchboardStore
import Testing

/// A database from before positions keeps what it had queued: the copies waiting for a device
/// at the upgrade are delivered and acknowledged as before, and what follows goes by position.
@Suite(.storeBlind) struct PositionUpgradeTests {
    @Test func copiesQueuedBeforeTheUpgradeAreStillDeliveredOnceAlongsideNewMessages() async throws {
        let t: Int64 = 1_700_000_000_000
        let path = try await earlierDatabase(
            upTo: "v19: vendor accounts of devices",
            rows: aliceAndBobInC1(at: t) + """
                INSERT INTO message (id, conversation_id, sender, text, timestamp) VALUES ('old', 'c1', 'alice', 'queued before', \(t + 1));
                INSERT INTO device_inbox (client_id, device_key, message_seq, delivered_at) VALUES ('bob', 'phone', 1, \(t + 1));
                """
        )
        let store = try SQLiteStore(path: path)
        let phone = DeviceAddress(clientID: "bob", key: "phone")
        let new = try await store.append(
            Message(id: "new", conversationID: "c1", from: "alice", content: .text("stored after"), timestamp: t + 2), queueFor: .everyMember
        )
        #expect(try await store.pendingMessages(for: phone, seqs: 1...Int64.max, limit: 10).map(\.id) == ["old", "new"])
        let acknowledged = try await store.acknowledge(phone, conversationID: "c1", timestamps: (t + 1)...(t + 2))
        #expect(acknowledged.map(\.id).sorted() == ["new", "old"])
        #expect(try await store.pendingMessages(for: phone, seqs: 1...Int64.max, limit: 10).isEmpty)
        #expect(new.seq == 2)
    }
}
