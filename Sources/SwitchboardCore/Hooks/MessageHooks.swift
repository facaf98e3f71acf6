import Foundation
import SwitchboardHooks
import SwitchboardJSON
import SwitchboardWire

/// The message hook points as the core uses them: requests built from domain values,
/// decisions read back into them.
struct MessageHooks: Sendable {
    let pipeline: HookPipeline
    let background: WorkQueue
    /// Content a hook writes is held to a client's limit.
    let maxContentBytes: Int

    /// What `_messageReceived` left of a message.
    struct Received {
        var message: Message
        var recipients: [String]
        /// Set when hooks changed the content: what the sender's patch says.
        var patch: (code: Int32, detail: String)?
    }

    /// Runs `_messageReceived`; throws 4402 when a handler drops the message.
    func received(_ message: Message, in kind: ConversationKind, recipients: [String], transient: Bool, sourceIP: String) async throws -> Received {
        guard pipeline.hasHandlers(for: .messageReceived) else { return Received(message: message, recipients: recipients) }
        let (content, bin) = Self.hookContent(message.content)
        let request = MessageReceivedRequest(
            fromPeer: message.from, convId: message.conversationID, toPeers: recipients, transient: transient, bin: bin,
            content: content, receipt: message.wantsReceipt, timestamp: message.timestamp, system: false, sourceIP: sourceIP,
            conversationKind: kind
        )
        let outcome = await pipeline.run(request)
        return try Self.decision(
            outcome.stop.map { ($0.code, $0.detail) }, outcome.contentPatch, content: outcome.request.content, bin: outcome.request.bin,
            toPeers: outcome.request.toPeers, message: message, recipients: recipients, rejection: .messageRejectedByApp,
            maxContentBytes: maxContentBytes
        )
    }

    /// Runs `_messageUpdate` on an edit or recall whose new state is `edited`; throws 4405
    /// when a handler rejects it.
    func update(_ edited: Message, in kind: ConversationKind, recipients: [String], recall: Bool, sourceIP: String) async throws -> Received {
        guard pipeline.hasHandlers(for: .messageUpdate) else { return Received(message: edited, recipients: recipients) }
        let (content, bin) = Self.hookContent(edited.content)
        let request = MessageUpdateRequest(
            fromPeer: edited.from, convId: edited.conversationID, toPeers: recipients, bin: bin, content: content,
            timestamp: edited.timestamp, msgId: edited.id, sourceIP: sourceIP, recall: recall, system: false,
            conversationKind: kind
        )
        let outcome = await pipeline.run(request)
        return try Self.decision(
            outcome.stop.map { ($0.code, $0.detail) }, outcome.contentPatch, content: outcome.request.content, bin: outcome.request.bin,
            toPeers: outcome.request.toPeers, message: edited, recipients: recipients, rejection: .messageUpdateRejectedByApp,
            maxContentBytes: maxContentBytes
        )
    }

    /// Reads what the handlers left: a stop becomes `rejection` with the hook's code and
    /// detail; new content replaces the message's; recipients may narrow, never widen.
    private static func decision(
        _ stop: (code: Int32?, detail: String?)?, _ patch: (code: Int32, detail: String)?, content: String, bin: Bool, toPeers: [String],
        message: Message, recipients: [String], rejection: ErrorCode, maxContentBytes: Int
    ) throws -> Received {
        if let stop {
            throw CommandError(rejection, detail: stop.detail, appCode: stop.code, appMessage: stop.detail)
        }
        var result = Received(message: message, recipients: recipients)
        if let patch {
            result.message.content = messageContent(content, bin: bin)
            result.patch = patch
            // Stored and delivered as if the sender had sent it, so held to the same limit.
            guard result.message.content.byteCount <= maxContentBytes else {
                throw CommandError(rejection, detail: "a hook made the content \(result.message.content.byteCount) bytes, past the limit of \(maxContentBytes)")
            }
        }
        let allowed = Set(recipients)
        result.recipients = toPeers.filter(allowed.contains)
        return result
    }

    func sent(_ message: Message, online: [String], offline: [String], transient: Bool, sourceIP: String) async {
        guard pipeline.hasHandlers(for: .messageSent) else { return }
        let (content, bin) = Self.hookContent(message.content)
        await background.notify(pipeline, MessageSentNotification(
            fromPeer: message.from, convId: message.conversationID, msgId: message.id, onlinePeers: online,
            offlinePeers: offline, transient: transient, system: false, bin: bin, content: content,
            receipt: message.wantsReceipt, timestamp: message.timestamp, sourceIP: sourceIP
        ))
    }

    /// Runs `_receiversOffline` and returns who gets a push with which payload, or nil for none.
    /// Members who muted the conversation get none unless a handler says `force`.
    func receiversOffline(_ message: Message, offline: [String], mutedBy: [String], clientPushData: String?, template: String) async -> PushNotice? {
        let (content, _) = Self.hookContent(message.content)
        // As on LeanCloud: those named; `mentionAll` says the rest.
        let mentioned = offline.filter(message.mentionPids.contains)
        var request = ReceiversOfflineRequest(
            fromPeer: message.from, convId: message.conversationID, offlinePeers: offline, content: content,
            timestamp: message.timestamp, mentionAll: message.mentionAll, mentionOfflinePeers: mentioned
        )
        if pipeline.hasHandlers(for: .receiversOffline) {
            let outcome = await pipeline.run(request)
            if outcome.isStopped { return nil }
            request = outcome.request
        }
        let offlineSet = Set(offline)
        let muted = request.force ? [] : Set(mutedBy)
        let recipients = request.offlinePeers.filter { offlineSet.contains($0) && !muted.contains($0) }
        guard !recipients.isEmpty else { return nil }
        let chosen = request.pushMessage ?? clientPushData.flatMap { try? JSONValue(parsing: $0) }
            ?? PushPayload.fromTemplate(template, conversationID: message.conversationID, timestamp: message.timestamp, from: message.from)
        let (payload, profile, team) = PushPayload.splitHints(chosen)
        return PushNotice(
            conversationID: message.conversationID, messageID: message.id, from: message.from,
            timestamp: message.timestamp, recipients: recipients, payload: payload, profile: profile, apnsTeamID: team
        )
    }

    /// Hooks see binary content as Base64 with `bin` set, as LeanCloud's do.
    static func hookContent(_ content: MessageContent) -> (String, Bool) {
        switch content {
        case .text(let text): (text, false)
        case .binary(let bytes): (Data(bytes).base64EncodedString(), true)
        }
    }

    static func messageContent(_ content: String, bin: Bool) -> MessageContent {
        if bin, let bytes = Data(base64Encoded: content) { return .binary(Array(bytes)) }
        return .text(content)
    }
}
