import SwitchboardWire

/// What the REST API does to conversations and messages beyond the core's operations
/// (`MessagingCore.conversations`, `.sending`, `.editing`): deleting messages from the
/// server, finding where a client is blocked.
extension MessagingCore {
    /// The name the server acts in where LeanCloud's REST API names no client: the
    /// creator of what it creates, the `initBy` of what it changes.
    public static let serverClientID = "system"

    /// The ids of the conversations that block `clientID`, in order.
    public func conversationIDs(blocking clientID: String) async throws -> [String] {
        try await context.store.conversationIDs(blocking: clientID)
    }

    /// Deletes `from`'s message sent at `timestamp` from the server; clients that have it keep it.
    public func deleteMessage(_ id: String, in conversationID: String, from: String, sentAt timestamp: Int64) async throws {
        guard let message = try await context.store.message(id: id), message.conversationID == conversationID,
              message.from == from, message.timestamp == timestamp
        else {
            throw CommandError(.messageNotFound, detail: "no message \(id) from \(from) at \(timestamp) in \(conversationID)")
        }
        try await context.store.deleteMessage(id: id)
        context.logger.info("message deleted", metadata: ["message": "\(id)", "conversation": "\(conversationID)"])
    }

    /// Deletes a system conversation's message for one subscriber: the others who had it
    /// keep it; the message goes once nobody is left to see it.
    public func deleteMessage(_ id: String, in conversationID: String, for clientID: String, from: String, sentAt timestamp: Int64) async throws {
        guard var message = try await context.store.message(id: id), message.conversationID == conversationID,
              message.from == from, message.timestamp == timestamp,
              let conversation = try await context.store.conversation(id: conversationID), conversation.kind == .system
        else {
            throw CommandError(.messageNotFound, detail: "no message \(id) from \(from) at \(timestamp) in system conversation \(conversationID)")
        }
        let audience = conversation.recipients(of: message).filter { $0 != clientID }
        if audience.isEmpty {
            try await context.store.deleteMessage(id: id)
        } else {
            message.audience = audience
            try await context.store.updateMessage(message)
        }
        context.logger.info("message deleted for a subscriber", metadata: ["message": "\(id)", "client": "\(clientID)", "left": "\(audience.count)"])
    }
}
