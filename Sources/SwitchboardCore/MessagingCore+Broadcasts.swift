import SwitchboardJSON

/// LeanCloud's app-wide broadcasts (`/1.2/rtm/broadcasts`): a message of a system
/// conversation to every client of the app, whether or not it subscribes.
extension MessagingCore {
    /// Sends `content` from `from` in system conversation `id` to every client online now
    /// and, unless `transient`, to each device that logs in before `validTill` and has not
    /// had it. It is kept in the conversation's history. No hook runs: there is no list of
    /// recipients for `_messageReceived` to change, and no one is offline to push to.
    ///
    /// `push` (an object, or the text of an alert): every client with a registered device
    /// gets it too, a page of clients per push.
    public func broadcast(
        _ content: String, from: String, systemConversation id: String, validTill: Int64, transient: Bool, push: JSONValue?
    ) async throws -> Message {
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
            message = try await context.store.append(message, queueFor: .nobody)
            if let seq = message.seq { presence.messageStored(seq: seq) }
            try await context.store.keepBroadcast(messageID: message.id, validTill: validTill)
        }
        delivery.deliver(message, to: nil, conversation: conversation, except: nil, transient: transient, toSender: false)
        context.logger.info("broadcast sent", metadata: ["message": "\(message.id)", "conversation": "\(id)"])
        if let push {
            let payload = push.objectValue != nil ? push : ["alert": push]
            await sending.background.submit { [context, sending, message] in
                await Self.pushToEveryDevice(message, payload: payload, context: context, gateway: sending.push)
            }
        }
        return message
    }

    /// Clients per push of a broadcast.
    static let broadcastPushPage = 1000

    private static func pushToEveryDevice(_ message: Message, payload: JSONValue, context: CoreContext, gateway: any PushGateway) async {
        let (payload, profile, team) = PushPayload.splitHints(payload)
        var after = ""
        do {
            while true {
                let clients = try await context.store.clientsWithDevices(after: after, limit: broadcastPushPage)
                guard let last = clients.last else { return }
                await gateway.push(PushNotice(
                    conversationID: message.conversationID, messageID: message.id, from: message.from, timestamp: message.timestamp,
                    recipients: clients, devices: try await context.store.pushDevices(of: clients), payload: payload,
                    profile: profile, apnsTeamID: team
                ))
                after = last
            }
        } catch {
            context.logger.error("broadcast push stopped", metadata: ["message": "\(message.id)", "after": "\(after)", "error": "\(error)"])
        }
    }

    /// The broadcasts of a system conversation still valid, oldest first.
    public func broadcasts(of id: String, skip: Int, limit: Int) async throws -> [Message] {
        try await context.store.broadcasts(in: id, sentAfter: 0, validAt: context.clock.now(), skip: max(skip, 0), limit: min(max(limit, 0), 1000))
    }

    /// Stops a broadcast reaching the devices that have not had it yet.
    public func deleteBroadcast(_ messageID: String) async throws {
        guard try await context.store.deleteBroadcast(messageID: messageID) else {
            throw CommandError(.messageNotFound, detail: "no broadcast \(messageID)")
        }
    }
}
