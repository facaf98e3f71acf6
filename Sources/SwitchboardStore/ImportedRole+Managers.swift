import SwitchboardCore
import SwitchboardData

extension ImportedRole {
    /// The conversation's managers with this role applied, for a role row at `index` of its
    /// batch; nil when they stay as they are, counted in `outcome`: already there for the
    /// creator's own row (the creator owns it, whatever a row says) and for a role the member
    /// has already, skipped for an owner other than the creator.
    func managers(applyingTo managers: [String], creator: String, at index: Int, in outcome: inout ImportOutcome) -> [String]? {
        guard clientID != creator else {
            outcome.alreadyThere += 1
            return nil
        }
        guard role != .owner else {
            outcome.skip(index, ImportReasons.ownerIsCreator(clientID, of: conversationID, creator: creator))
            return nil
        }
        let isManager = managers.contains(clientID)
        guard isManager != (role == .manager) else {
            outcome.alreadyThere += 1
            return nil
        }
        return isManager ? managers.filter { $0 != clientID } : managers + [clientID]
    }
}
