import SwitchboardData

extension IMClasses {
    /// The IM classes answered from `store`: conversations, roles and saved devices.
    public static func stored(in store: any MessageStore) -> IMClasses {
        IMClasses([StoredConversations(store: store), StoredMemberInfos(store: store), StoredInstallations(store: store)])
    }
}
