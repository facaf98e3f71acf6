import GRDB
import SwitchboardCore

/// Delivery receipts, each sent once (`message.receipt_sent`): the index `message_receipt_due`
/// holds the messages still waiting for theirs, so an ack by time reads only those.
extension SQLiteStore {
    public func takeReceipts(of seqs: [Int64]) async throws -> Set<Int64> {
        guard !seqs.isEmpty else { return [] }
        return try await writer.write { db in
            var taken: Set<Int64> = []
            for chunk in Self.listChunks(seqs) {
                let rows = try Int64.fetchAll(
                    db,
                    sql: "UPDATE message SET receipt_sent = 1 WHERE seq IN \(Self.placeholders(chunk.count)) AND wants_receipt AND NOT receipt_sent RETURNING seq",
                    arguments: Self.padded(chunk)
                )
                taken.formUnion(rows)
            }
            return taken
        }
    }

    public func takeReceipts(for clientID: String, conversationID: String, timestamps range: ClosedRange<Int64>) async throws -> [AcknowledgedMessage] {
        try await writer.write { db in
            let due = try Row.fetchAll(
                db,
                cachedSQL: """
                    UPDATE message SET receipt_sent = 1
                    WHERE conversation_id = ? AND timestamp BETWEEN ? AND ? AND wants_receipt AND NOT receipt_sent AND sender != ?
                    RETURNING seq, id, conversation_id, sender, timestamp, wants_receipt
                    """,
                arguments: [conversationID, range.lowerBound, range.upperBound, clientID]
            ).map(Self.acknowledgedMessage) // the columns of `acknowledgedColumns`, in order
            try Self.advance(clientID: clientID, in: conversationID, acknowledged: range.upperBound, read: 0, db)
            return due
        }
    }
}
