import SwitchboardJSON
import SwitchboardWire

extension ConversationOperations {
    /// Keys one update may change, and the size the attributes may grow to.
    static let maxUpdateKeys = 100
    static let maxAttributesBytes = 65_536

    /// Changes the name and attributes, as `_conversationUpdate` decides; the other members
    /// are told. A client changes a conversation it is a member of (4325 otherwise).
    public func update(_ update: ConversationUpdate, by caller: Caller) async throws -> UpdatedConversation {
        try await locks.withLock(update.conversationID) {
            let clientID = caller.clientID
            var conversation = try await existingConversation(update.conversationID)
            try conversation.requireMember(caller, or: .conversationUpdateRejected)
            var changes = update.changes
            if case .attributes(let replaced) = try await hooks.update(initBy: clientID, conversationID: conversation.id, change: .attributes(.object(changes))) {
                changes = replaced.objectValue ?? [:]
            }
            guard changes.count <= Self.maxUpdateKeys else {
                throw CommandError(.conversationUpdateFailed, detail: "at most \(Self.maxUpdateKeys) keys per update")
            }
            for (key, value) in changes {
                if key == "name" {
                    conversation.name = value["__op"]?.stringValue == "Delete" ? nil : value.stringValue
                } else {
                    try AttributeUpdate(key: key, value: value).apply(to: &conversation.attributes)
                }
            }
            guard JSONValue.object(conversation.attributes).jsonString.utf8.count <= Self.maxAttributesBytes else {
                throw CommandError(.conversationUpdateFailed, detail: "attributes are at most \(Self.maxAttributesBytes) bytes")
            }
            conversation.updatedAt = context.clock.now()
            try await context.store.saveConversation(conversation)

            var notice = Self.notice(.updated, in: conversation.id, by: clientID)
            notice.convMessage.udate = ISODate.string(milliseconds: conversation.updatedAt)
            notice.convMessage.attr.data = JSONValue.object(changes).jsonString
            notice.convMessage.attrModified.data = notice.convMessage.attr.data
            await notifier.notify(conversation.members.filter { $0 != clientID }, notice, permanent: !conversation.isTransient)
            return UpdatedConversation(conversation: conversation, changes: changes)
        }
    }

    /// Mutes or unmutes the conversation for each client, as `_conversationUpdate` decides
    /// for each, and saves it. A client mutes, as a member, for itself alone; the app's
    /// server for any clients.
    public func setMuted(_ change: MuteChange, by caller: Caller) async throws -> Conversation {
        let clients = try namedClients(change.clients)
        guard !caller.isClient || clients == [caller.clientID] else {
            throw CommandError(.conversationOperationUnauthorized, detail: "a client mutes a conversation for itself alone")
        }
        return try await locks.withLock(change.conversationID) {
            var conversation = try await existingConversation(change.conversationID)
            try conversation.requireMember(caller)
            for clientID in clients {
                var decided = change.muted
                if case .mute(let hooked) = try await hooks.update(initBy: clientID, conversationID: conversation.id, change: .mute(change.muted)) {
                    decided = hooked
                }
                conversation.mutedBy.removeAll { $0 == clientID }
                if decided { conversation.mutedBy.append(clientID) }
            }
            conversation.updatedAt = context.clock.now()
            try await context.store.saveConversation(conversation)
            return conversation
        }
    }
}
