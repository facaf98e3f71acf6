import SwitchboardData

/// A stored conversation as an export's roles, lists and subscribers of it see it: as an
/// import last wrote it (they apply), changed here since (its own are newer: they stay), or
/// not there.
enum ImportedConversation<Stored> {
    case imported(Stored)
    case changedHere
    case missing
}

extension ImportedConversation {
    /// The stored conversation an item of it (at `index` of its batch) applies to; nil when
    /// it does not apply, counted in `outcome`: already there when the conversation changed
    /// here since, skipped when it is not there.
    func target(of index: Int, _ conversationID: String, in outcome: inout ImportOutcome) -> Stored? {
        switch self {
        case .imported(let stored):
            return stored
        case .changedHere:
            outcome.alreadyThere += 1
        case .missing:
            outcome.skip(index, ImportReasons.noConversation(conversationID))
        }
        return nil
    }
}
