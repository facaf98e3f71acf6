import Foundation
import SwitchboardWire

/// `patch/modify` notifications: a message changed after it was sent, by its sender (edit,
/// recall) or by the system (a hook's rewrite, with a code and reason). `modify`, not the
/// `modified` that answers the editor: the Android SDK takes a `modified` for the reply to a
/// request of its own, finds none and drops the socket (`LCDefaultConnectionListener.java`),
/// and the Apple SDKs ignore it.
enum PatchNotices {
    /// A recalled message's content: LeanCloud's recalled-message type.
    static let recalledContent = #"{"_lctype":-127}"#

    static func item(for message: Message, code: Int32? = nil, reason: String? = nil) -> PatchItem {
        var item = PatchItem()
        item.cid = message.conversationID
        item.mid = message.id
        item.timestamp = message.timestamp
        item.from = message.from
        switch message.content {
        case .text(let text): item.data = text
        case .binary(let bytes): item.binaryMsg = Data(bytes)
        }
        if message.isRecalled { item.recall = true }
        item.patchTimestamp = message.patchTimestamp ?? message.timestamp
        if let code { item.patchCode = Int64(code) }
        if let reason { item.patchReason = reason }
        if message.mentionAll { item.mentionAll = true }
        item.mentionPids = message.mentionPids
        return item
    }

    static func notice(_ items: [PatchItem], to clientID: String) -> GenericCommand {
        var notice = Replies.notification(.patch, op: .modify, to: clientID)
        notice.patchMessage.patches = items
        notice.patchMessage.lastPatchTime = items.map(\.patchTimestamp).max() ?? 0
        return notice
    }
}
