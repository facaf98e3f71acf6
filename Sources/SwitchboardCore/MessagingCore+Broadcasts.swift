/// LeanCloud's app-wide broadcasts (`/1.2/rtm/broadcasts`): a message of a system
/// conversation to every client of the app, whether or not it subscribes.
extension MessagingCore {
    /// Sends `content` from `from` in system conversation `id` to every client online now
    /// and, unless `transient`, to each device that logs in before `validTill` and has not
    /// had it. It is kept in the conversation's history. No hook runs: there is no list of
    /// recipients for `_messageReceived` to change, and no one is offline to push to.
    public func broadcast(_ content: String, from: String, systemConversation id: String, validTill: Int64, transient: Bool) async throws -> Message {
        guard let conversation = try await context.store.conversation(id: id), conversation.kind == .system else {
            throw CommandError(.conversationNotFound, detail: "no system conversation \(id)")
        }
        guard ClientID.isValid(from) else { throw CommandError(.conversationAPIFailed, detail: ClientID.rule) }
        let text = MessageContent.text(content)
        guard text.byteCount <= context.settings.maxContentBytes else {
            throw CommandError(.frameTooLong, detail: "content is \(text.byteCount) bytes, at most \(context.settings.maxContentBytes) allowed")
        }
        var message = Message(id: Identifiers.messageID(), conversationID: id, from: from, content: text, timestamp: context.clock.next())
        if !transient {
            message = try await context.store.append(message, queueFor: [])
            if let seq = message.seq { presence.messageStored(seq: seq) }
            try await context.store.keepBroadcast(messageID: message.id, validTill: validTill)
        }
        let online = Set(presence.onlineDevices.keys.map(\.clientID))
        delivery.deliver(message, to: Array(online), conversation: conversation, except: nil, transient: transient)
        context.logger.info("broadcast sent", metadata: ["message": "\(message.id)", "conversation": "\(id)", "online": "\(online.count)"])
        return message
    }

    /// The broadcasts of a system conversation still valid, oldest first.
    public func broadcasts(of id: String, skip: Int, limit: Int) async throws -> [Message] {
        try await context.store.broadcasts(in: id, sentAfter: 0, validAt: ServerClock.wallMilliseconds(), skip: max(skip, 0), limit: min(max(limit, 0), 1000))
    }

    /// Stops a broadcast reaching the devices that have not had it yet.
    public func deleteBroadcast(_ messageID: String) async throws {
        guard try await context.store.deleteBroadcast(messageID: messageID) else {
            throw CommandError(.messageNotFound, detail: "no broadcast \(messageID)")
        }
    }
}
