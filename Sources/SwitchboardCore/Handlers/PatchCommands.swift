import SwitchboardWire

/// `patch/modify`: a sender edits or recalls messages (see `MessageEditing`).
struct PatchCommands: Sendable {
    /// Edits and recalls one `patch/modify` may carry; SDKs send one.
    static let maxItems = 100

    let editing: MessageEditing

    func modify(_ request: GenericCommand, from clientID: String, on connection: Connection) async throws -> GenericCommand {
        guard request.patchMessage.patches.count <= Self.maxItems else {
            throw CommandError(.unparseableRawMessage, detail: "at most \(Self.maxItems) changes per patch")
        }
        var lastPatchTime: Int64 = 0
        for item in request.patchMessage.patches {
            let changed = try await editing.change(Self.change(item), by: .client(clientID, on: connection))
            lastPatchTime = changed.patchTimestamp ?? 0
        }
        var reply = Replies.reply(to: request, op: .modified)
        reply.patchMessage.lastPatchTime = lastPatchTime
        return reply
    }

    /// The change a patch item asks for. A client names the message by its id alone.
    private static func change(_ item: PatchItem) throws -> MessageChange {
        guard item.hasMid else { throw CommandError(.messageNotFound, detail: "no message named") }
        let content: MessageContent? = item.recall ? nil : (item.hasBinaryMsg ? .binary(Array(item.binaryMsg)) : .text(item.data))
        var change = MessageChange(messageID: item.mid, conversationID: item.hasCid ? item.cid : nil, sentAt: nil, content: content)
        change.mentionAll = item.mentionAll
        change.mentionPids = item.mentionPids
        return change
    }
}
