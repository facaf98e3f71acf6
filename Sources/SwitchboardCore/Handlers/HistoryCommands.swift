import Foundation
import SwitchboardWire

/// `logs`: a page of a conversation's history (see `MessageHistory`).
struct HistoryCommands: Sendable {
    static let defaultLimit = 20

    let reading: MessageHistory

    func query(_ request: GenericCommand, from clientID: String, on connection: Connection) async throws -> GenericCommand {
        let logs = request.logsMessage
        guard logs.hasCid else { throw CommandError(.conversationNotFound, detail: "no such conversation") }
        // The JS SDK sends the page size as `l`; `limit` is the newer name. 0 asks for nothing.
        let requested = logs.hasL ? Int(logs.l) : (logs.hasLimit ? Int(logs.limit) : Self.defaultLimit)
        let query = HistoryQuery(
            scope: .conversation(logs.cid),
            limit: requested,
            direction: logs.direction == .new ? .newer : .older,
            start: logs.hasT ? .init(timestamp: logs.t, messageID: logs.hasMid ? logs.mid : nil, included: logs.tIncluded) : nil,
            end: logs.hasTt ? .init(timestamp: logs.tt, messageID: logs.hasTmid ? logs.tmid : nil, included: logs.ttIncluded) : nil,
            messageType: logs.hasLctype ? logs.lctype : nil
        )
        let (page, conversations) = try await reading.page(query, by: .client(clientID, on: connection))
        var reply = Replies.reply(to: request)
        reply.logsMessage = LogsCommand()
        if let conversation = conversations[logs.cid] {
            reply.logsMessage.logs = page.map { Self.logItem($0, conversation: conversation) }
        }
        return reply
    }

    static func logItem(_ message: Message, conversation: Conversation) -> LogItem {
        var item = LogItem()
        item.from = message.from
        item.msgID = message.id
        item.timestamp = message.timestamp
        switch message.content {
        case .text(let text):
            item.data = text
        case .binary(let bytes):
            // LogItem has no bytes field: binary content travels as Base64 with `bin` set.
            item.data = Data(bytes).base64EncodedString()
            item.bin = true
        }
        if message.mentionAll { item.mentionAll = true }
        item.mentionPids = message.mentionPids
        if let patched = message.patchTimestamp { item.patchTimestamp = patched }
        item.convType = Int32(conversation.kind.rawValue)
        return item
    }
}
