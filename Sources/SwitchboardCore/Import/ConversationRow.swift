import SwitchboardJSON

/// A `_Conversation` row as LeanCloud's REST API and console export give it (see
/// docs/leancloud-export-format.md), as a conversation to store.
public enum ConversationRow {
    public static func conversation(_ row: JSONValue) throws(ImportRowError) -> Conversation {
        let row = try ExportRow(row)
        let members = try row.strings("m")
        let temporary = try row.flag("temp")
        let kind: Conversation.Kind = if try row.flag("sys") {
            .system
        } else if try row.flag("tr") {
            .transient
        } else if temporary {
            .temporary
        } else {
            .normal
        }
        let createdAt = try row.date("createdAt")
        var expiresAt: Int64?
        if kind == .temporary {
            guard let ttl = try row.optionalInt("ttl"), ttl > 0 else { throw ImportRowError("a temporary conversation needs its ttl (seconds)") }
            expiresAt = createdAt + ttl * 1000
        }
        // Chat rooms have no unique key: `conv/start` gives them none either.
        let unique = try row.flag("unique") && kind != .transient
        return Conversation(
            id: try row.string("objectId"),
            kind: kind,
            name: try row.optionalString("name"),
            // Conversations the app's server made through the REST API may name no creator.
            creator: try row.optionalString("c") ?? MessagingCore.serverClientID,
            members: ConversationOperations.uniqued(members),
            attributes: row.fields.filter { !ConversationDocument.reservedKeys.contains($0.key) },
            uniqueKey: unique ? Conversation.uniqueKey(for: members, temporary: kind == .temporary) : nil,
            mutedBy: try row.strings("mu"),
            createdAt: createdAt,
            updatedAt: try row.optionalDate("updatedAt") ?? createdAt,
            lastMessageAt: try row.optionalDate("lm"),
            expiresAt: expiresAt
        )
    }
}
