/// A stored conversation as an export's roles, lists and subscribers of it see it: as an
/// import last wrote it (they apply), changed here since (its own are newer: they stay), or
/// not there.
enum ImportedConversation<Stored> {
    case imported(Stored)
    case changedHere
    case missing
}
