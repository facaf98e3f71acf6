/// Why a store leaves an imported item out or changes it, in the same words on SQLite and
/// PostgreSQL; the import prints them with the item's file:line.
enum ImportReasons {
    static func noConversation(_ id: String) -> String {
        "no conversation \(id)"
    }

    static func notSystem(_ id: String) -> String {
        "conversation \(id) is not a system conversation"
    }

    static func uniqueKeyTaken(by holder: String) -> String {
        "stored as not unique: conversation \(holder) of the same members is the unique one"
    }

    static func ownerIsCreator(_ clientID: String, of id: String, creator: String) -> String {
        "\(clientID) cannot own conversation \(id): its creator \(creator) does"
    }
}
