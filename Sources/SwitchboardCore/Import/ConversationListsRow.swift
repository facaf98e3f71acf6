import SwitchboardJSON

/// A line of an export's `conversations/lists.jsonl`: a conversation's blocked and silenced
/// members, whole.
public enum ConversationListsRow {
    public static func lists(_ row: JSONValue) throws(ImportRowError) -> ImportedLists {
        let row = try ExportRow(row)
        return ImportedLists(conversationID: try row.string("conv-id"), blocked: try row.strings("blocked"), silenced: try row.strings("silenced"))
    }
}
