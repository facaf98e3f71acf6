/// Everything the core keeps across restarts, in one: the core depends on these protocols
/// only; `SwitchboardStore` implements them over SQLite and over PostgreSQL, each role in a
/// file of its own (`SQLiteStore+Conversations.swift`, `PostgresStore+Conversations.swift`,
/// and so on). A part that needs one role takes that role alone (`any PushDeviceStore`);
/// app data (`DocumentStore`) and imports (`ImportStore`) are roles of their own.
public protocol MessageStore: ConversationStore, MessageLog, DeliveryState, PushDeviceStore, NoticeStore {
    /// False when writes are refused for good (SQLite's file deleted under the server);
    /// `/health` then says so.
    var acceptsWrites: Bool { get }
}

extension MessageStore {
    public var acceptsWrites: Bool { true }
}
