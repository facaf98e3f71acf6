extension Conversation {
    /// Who receives `message` and its changes: its audience if it has one, else every
    /// member; never its sender.
    func recipients(of message: Message) -> [String] {
        (message.audience ?? members).filter { $0 != message.from }
    }

    /// Refuses with 4317 a client that is not a member.
    func requireMember(_ clientID: String) throws {
        guard members.contains(clientID) else {
            throw CommandError(.conversationMembershipRequired, detail: "\(clientID) is not a member of \(id)")
        }
    }

    /// Takes clients out of the members, with their roles: one who comes back is a member.
    mutating func removeMembers(_ leaving: [String]) {
        members.removeAll { leaving.contains($0) }
        managers.removeAll { leaving.contains($0) }
    }
}
