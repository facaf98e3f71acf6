import SwitchboardJSON

/// A `_ConversationMemberInfo` row (`cid`, `clientId`, `role`) as a member's role.
public enum MemberInfoRow {
    public static func role(_ row: JSONValue) throws(ImportRowError) -> ImportedRole {
        let row = try ExportRow(row)
        let name = try row.string("role")
        guard let role = MemberRole(rawValue: name) else {
            throw ImportRowError("unknown role \(name): LeanCloud's are Owner, Manager and Member")
        }
        return ImportedRole(conversationID: try row.string("cid"), clientID: try row.string("clientId"), role: role)
    }
}
