import SwitchboardData

extension IMClasses {
    /// The IM classes answered from `store`: conversations, roles and saved devices; what has
    /// expired by `clock` is left out.
    public static func stored(in store: any MessageStore, clock: any WallClock = SystemWallClock()) -> IMClasses {
        IMClasses([StoredConversations(store: store, clock: clock), StoredMemberInfos(store: store, clock: clock), StoredInstallations(store: store)])
    }
}
