import Foundation
import SwitchboardJSON

/// A message as `GET /1.2/rtm/messages` lists it (`msg-id`, `conv-id`, `from`, `timestamp`,
/// `data`, `bin`, mentions, `patch-timestamp`, `recall`), as a message to store.
public enum MessageRow {
    public static func message(_ row: JSONValue) throws(ImportRowError) -> Message {
        let row = try ExportRow(row)
        let timestamp = try row.int("timestamp")
        let patchTimestamp = try row.optionalInt("patch-timestamp")
        guard timestamp >= 0, (patchTimestamp ?? 0) >= 0 else { throw ImportRowError("timestamps must be milliseconds since 1970") }
        guard let from = try row.optionalString("from") else { throw ImportRowError("from is missing") }
        return Message(
            id: try row.string("msg-id"),
            conversationID: try row.string("conv-id"),
            from: from,
            content: try content(row),
            timestamp: timestamp,
            mentionAll: try row.flag("mention-all"),
            mentionPids: try row.strings("mention-client-ids"),
            patchTimestamp: patchTimestamp
        )
    }

    /// The text, or the bytes `data` holds in base64 when `bin` is true. A message the
    /// server calls recalled has LeanCloud's recalled type, as history shows it.
    private static func content(_ row: ExportRow) throws(ImportRowError) -> MessageContent {
        let data = try row.optionalString("data")
        if try row.flag("recall") {
            let content = MessageContent.text(data ?? "")
            return content.typedMessageType == -127 ? content : .text(PatchNotices.recalledContent)
        }
        guard let data else { throw ImportRowError("data is missing") }
        guard try row.flag("bin") else { return .text(data) }
        guard let bytes = Data(base64Encoded: data) else { throw ImportRowError("data of a binary message (bin) must be base64") }
        return .binary(Array(bytes))
    }
}
