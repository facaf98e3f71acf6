import PostgresNIO
import SwitchboardCore

/// Delivery receipts, each sent once, as `SQLiteStore+Receipts`.
extension PostgresStore {
    public func takeReceipts(of seqs: [Int64]) async throws -> Set<Int64> {
        guard !seqs.isEmpty else { return [] }
        let rows = try await all(
            "UPDATE message SET receipt_sent = TRUE WHERE seq = ANY(\(seqs)) AND wants_receipt AND NOT receipt_sent RETURNING seq"
        )
        return Set(rows.compactMap { $0.int64("seq") })
    }

    public func takeReceipts(for clientID: String, conversationID: String, timestamps range: ClosedRange<Int64>) async throws -> [AcknowledgedMessage] {
        try await transaction { connection in
            let due = try await connection.all(
                """
                UPDATE message SET receipt_sent = TRUE
                WHERE conversation_id = \(conversationID) AND timestamp BETWEEN \(range.lowerBound) AND \(range.upperBound)
                    AND wants_receipt AND NOT receipt_sent AND sender <> \(clientID)
                RETURNING \(unescaped: Self.acknowledgedColumns)
                """,
                logger
            ).map(Self.acknowledgedMessage)
            try await Self.advance(clientID: clientID, in: conversationID, acknowledged: range.upperBound, read: 0, connection, logger)
            return due
        }
    }
}
