import SwitchboardWire

extension Conversation {
    /// Who receives `message` and its changes: its audience if it has one, else every
    /// member; never its sender.
    func recipients(of message: Message) -> [String] {
        (message.audience ?? members).filter { $0 != message.from }
    }

    /// Whose devices `message`, sent to `recipients`, waits for until they acknowledge it.
    func queueing(of message: Message, to recipients: [String]) -> Queueing {
        // Chat rooms keep history but queue nothing: only members online now receive.
        if isTransient { return .nobody }
        if message.audience == nil, Set(recipients) == Set(members).subtracting([message.from]) { return .everyMember }
        return .only(recipients)
    }

    /// Refuses with 4317 a client that is not a member.
    func requireMember(_ clientID: String) throws {
        guard members.contains(clientID) else {
            throw CommandError(.conversationMembershipRequired, detail: "\(clientID) is not a member of \(id)")
        }
    }

    /// Refuses a client caller that is not a member, with 4317 or `code`; the app's server
    /// need not be one.
    func requireMember(_ caller: Caller, or code: ErrorCode = .conversationMembershipRequired) throws {
        guard !caller.isClient || members.contains(caller.clientID) else {
            throw CommandError(code, detail: "\(caller.clientID) is not a member of \(id)")
        }
    }

    /// Takes clients out of the members, with their roles: one who comes back is a member.
    mutating func removeMembers(_ leaving: [String]) {
        members.removeAll { leaving.contains($0) }
        managers.removeAll { leaving.contains($0) }
    }
}
