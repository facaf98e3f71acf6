extension Conversation {
    /// Refuses with 4317 a client that is not a member.
    func requireMember(_ clientID: String) throws {
        guard members.contains(clientID) else {
            throw CommandError(.conversationMembershipRequired, detail: "\(clientID) is not a member of \(id)")
        }
    }
}
