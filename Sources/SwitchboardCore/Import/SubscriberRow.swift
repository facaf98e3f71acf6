import SwitchboardJSON

/// A line of an export's `conversations/subscribers.jsonl`: a client subscribed to a system
/// conversation, and when (milliseconds).
public enum SubscriberRow {
    public static func subscription(_ row: JSONValue) throws(ImportRowError) -> Membership {
        let row = try ExportRow(row)
        let timestamp = try row.int("timestamp")
        guard timestamp >= 0 else { throw ImportRowError("timestamp must be milliseconds since 1970") }
        return Membership(conversationID: try row.string("conv-id"), clientID: try row.string("client-id"), joinedAt: timestamp)
    }
}
