import Foundation
import SwitchboardWire

/// `unread` notifications: per conversation, how many messages a client has not read, the
/// newest one, and whether any mentions it.
enum UnreadNotices {
    static func notice(_ summaries: [UnreadSummary], to clientID: String, at now: Int64) -> GenericCommand {
        var command = Replies.notification(.unread, to: clientID)
        command.unreadMessage.convs = summaries.map(tuple)
        command.unreadMessage.notifTime = now
        return command
    }

    private static func tuple(_ summary: UnreadSummary) -> UnreadTuple {
        var tuple = UnreadTuple()
        tuple.cid = summary.conversationID
        tuple.unread = Int32(clamping: summary.count)
        if summary.mentioned { tuple.mentioned = true }
        if let message = summary.lastMessage {
            tuple.mid = message.id
            tuple.timestamp = message.timestamp
            tuple.from = message.from
            switch message.content {
            case .text(let text): tuple.data = text
            case .binary(let bytes): tuple.binaryMsg = Data(bytes)
            }
            if let patched = message.patchTimestamp { tuple.patchTimestamp = patched }
        }
        return tuple
    }
}
