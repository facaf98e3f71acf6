import SwitchboardWire

/// Who may change whom in a conversation. The creator owns it and alone names managers.
/// Owners and managers moderate, and only clients ranked below them (a manager cannot
/// silence or block another manager or itself); a request naming anyone else is refused
/// whole with 4320, as LeanCloud does. The app's server ranks above every role.
extension Conversation {
    /// Refuses with 4320 a client caller that does not own the conversation.
    func requireOwner(_ caller: Caller) throws {
        guard !caller.isClient || role(of: caller.clientID) == .owner else {
            throw CommandError(.conversationOperationUnauthorized, detail: "only the owner changes roles")
        }
    }

    /// Refuses a client caller that is not a member (4317), does not moderate, or does not
    /// outrank each of `targets` (4320).
    func requireModerator(_ caller: Caller, over targets: [String]) throws {
        guard caller.isClient else { return }
        try requireMember(caller.clientID)
        let own = role(of: caller.clientID)
        guard own.moderates else {
            throw CommandError(.conversationOperationUnauthorized, detail: "only the owner and managers moderate")
        }
        if let peer = targets.first(where: { !own.outranks(role(of: $0)) }) {
            throw CommandError(.conversationOperationUnauthorized, detail: "\(peer) is \(role(of: peer).rawValue.lowercased()) of \(id)")
        }
    }

    /// Who among `requested` a client caller may not remove, with why: anyone ranked above
    /// it (4320), and the owner while it has managers (4324: the roles need their owner).
    /// Without managers the creator may leave, as on LeanCloud. The app's server removes
    /// anyone.
    func removalRefusals(_ requested: [String], by caller: Caller) -> [Refusal] {
        guard caller.isClient else { return [] }
        let clientID = caller.clientID
        let own = role(of: clientID)
        let outranking = requested.filter { $0 != clientID && role(of: $0).outranks(own) }
        let owner = !managers.isEmpty && requested.contains(creator) && !outranking.contains(creator) ? [creator] : []
        var refusals: [Refusal] = []
        if !outranking.isEmpty {
            refusals.append(Refusal(clients: outranking, error: CommandError(.conversationOperationUnauthorized, detail: "only members ranked below you can be removed")))
        }
        if !owner.isEmpty {
            refusals.append(Refusal(clients: owner, error: CommandError(.conversationNeedOwner, detail: "the owner stays while it has managers")))
        }
        return refusals
    }
}
