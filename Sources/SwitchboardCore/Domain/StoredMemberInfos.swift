import SwitchboardData
import SwitchboardJSON

/// `_ConversationMemberInfo` as LeanStorage showed it, read from the IM store's roles: a row
/// `{objectId, cid, clientId, role, createdAt, updatedAt}` for each manager of a conversation
/// that has not expired (LeanCloud kept the owner as the conversation's `c`, not here), its
/// `objectId` the one the member-infos REST routes give the role. Roles keep no times of
/// their own: a row has its conversation's. Read-only: roles change through the IM API.
///
/// The ids are hashes, so no index walks them in order: a page reads every conversation
/// with managers (through the store's pages, keeping the `limit` smallest ids), and a query
/// too, unless it names one conversation (`cid`).
public struct StoredMemberInfos: IMClass {
    let store: any ConversationStore
    let clock: any WallClock

    public init(store: any ConversationStore, clock: any WallClock = SystemWallClock()) {
        self.store = store
        self.clock = clock
    }

    public var name: String { IMClasses.memberInfo }

    public func objects(where whereDocument: JSONValue, order: String?, skip: Int, limit: Int) async throws -> [JSONValue] {
        var rows: [JSONValue] = []
        if let cid = whereDocument["cid"]?.stringValue {
            if let conversation = try await store.conversation(id: cid) {
                let managed = ManagedConversation(
                    id: conversation.id, managers: conversation.managers, createdAt: conversation.createdAt,
                    updatedAt: conversation.updatedAt, expiresAt: conversation.expiresAt
                )
                rows = roles(of: [managed]).map(Self.object)
            }
        } else {
            try await forEachRole { role in
                rows.append(Self.object(role))
                guard rows.count <= IMClasses.maxRowsRead else {
                    throw StorageError.tooExpensive("A query of \(name) reads more than \(IMClasses.maxRowsRead) roles: name the conversation (cid), or walk them with /1.1/scan/classes/\(name).")
                }
            }
        }
        return try IMClasses.page(of: rows, where: whereDocument, order: order ?? "createdAt", skip: skip, limit: limit)
    }

    public func page(after objectID: String?, limit: Int) async throws -> IMClassPage {
        let limit = max(limit, 1)
        var kept: [Role] = []
        try await forEachRole { role in
            guard role.objectID > objectID ?? "" else { return }
            kept.append(role)
            // The smallest ids past `objectID`, without holding every role.
            if kept.count >= 2 * limit {
                kept.sort { $0.objectID < $1.objectID }
                kept.removeLast(kept.count - limit)
            }
        }
        kept.sort { $0.objectID < $1.objectID }
        let page = kept.prefix(limit)
        return IMClassPage(objects: page.map(Self.object), next: kept.count > limit ? page.last?.objectID : nil)
    }

    /// A manager's role in a conversation, with the row's id.
    struct Role {
        let objectID: String
        let conversation: ManagedConversation
        let clientID: String
    }

    /// Calls `body` with each role of each conversation that has managers, in no order.
    private func forEachRole(_ body: (Role) throws -> Void) async throws {
        var after: String?
        repeat {
            let page = try await store.managedConversations(after: after, limit: ObjectQuery.maxLimit)
            for role in roles(of: page) { try body(role) }
            after = page.count < ObjectQuery.maxLimit ? nil : page.last?.id
        } while after != nil
    }

    private func roles(of conversations: [ManagedConversation]) -> [Role] {
        let now = clock.now()
        return conversations.filter { $0.expiresAt.map { now < $0 } ?? true }.flatMap { conversation in
            conversation.managers.map { manager in
                Role(objectID: Identifiers.memberInfoID(conversationID: conversation.id, clientID: manager), conversation: conversation, clientID: manager)
            }
        }
    }

    private static func object(_ role: Role) -> JSONValue {
        [
            "objectId": .string(role.objectID),
            "cid": .string(role.conversation.id),
            "clientId": .string(role.clientID),
            "role": .string(MemberRole.manager.rawValue),
            "createdAt": .string(ISODate.string(milliseconds: role.conversation.createdAt)),
            "updatedAt": .string(ISODate.string(milliseconds: role.conversation.updatedAt)),
        ]
    }
}
