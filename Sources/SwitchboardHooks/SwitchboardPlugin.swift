/// A Swift plugin: implement the hook points you care about; the others pass through.
///
/// ```swift
/// struct NoShouting: SwitchboardPlugin {
///     let name = "no-shouting"
///     func messageReceived(_ request: MessageReceivedRequest) async throws -> MessageResult {
///         MessageResult(content: request.content.lowercased())
///     }
/// }
/// ```
/// Register it with `SwitchboardApplication(config:logger:plugins:)`.
public protocol SwitchboardPlugin: Sendable {
    /// Names the plugin in logs, metrics, `hooks list` and config overrides.
    var name: String { get }
    var version: String { get }
    /// Higher runs first; equal priorities run in name order.
    var priority: Int { get }
    /// The plugin's own time budget per call, if it wants one other than the hook point's.
    var budget: Duration? { get }
    var failurePolicy: FailurePolicy? { get }

    func messageReceived(_ request: MessageReceivedRequest) async throws -> MessageResult
    func messageUpdate(_ request: MessageUpdateRequest) async throws -> MessageResult
    func receiversOffline(_ request: ReceiversOfflineRequest) async throws -> ReceiversOfflineResult
    func conversationStart(_ request: ConversationStartRequest) async throws -> ConversationResult
    func conversationAdd(_ request: ConversationMembersRequest) async throws -> ConversationResult
    func conversationRemove(_ request: ConversationMembersRequest) async throws -> ConversationResult
    func conversationUpdate(_ request: ConversationUpdateRequest) async throws -> ConversationResult
    func messageSent(_ notification: MessageSentNotification) async throws
    func conversationStarted(_ notification: ConversationStartedNotification) async throws
    func conversationAdded(_ notification: ConversationMembersChangedNotification) async throws
    func conversationRemoved(_ notification: ConversationMembersChangedNotification) async throws
    func clientOnline(_ notification: ClientOnlineNotification) async throws
    func clientOffline(_ notification: ClientOfflineNotification) async throws
}

extension SwitchboardPlugin {
    public var version: String { "1" }
    public var priority: Int { 0 }
    public var budget: Duration? { nil }
    public var failurePolicy: FailurePolicy? { nil }

    public func messageReceived(_ request: MessageReceivedRequest) async throws -> MessageResult { .passThrough }
    public func messageUpdate(_ request: MessageUpdateRequest) async throws -> MessageResult { .passThrough }
    public func receiversOffline(_ request: ReceiversOfflineRequest) async throws -> ReceiversOfflineResult { .passThrough }
    public func conversationStart(_ request: ConversationStartRequest) async throws -> ConversationResult { .passThrough }
    public func conversationAdd(_ request: ConversationMembersRequest) async throws -> ConversationResult { .passThrough }
    public func conversationRemove(_ request: ConversationMembersRequest) async throws -> ConversationResult { .passThrough }
    public func conversationUpdate(_ request: ConversationUpdateRequest) async throws -> ConversationResult { .passThrough }
    public func messageSent(_ notification: MessageSentNotification) async throws {}
    public func conversationStarted(_ notification: ConversationStartedNotification) async throws {}
    public func conversationAdded(_ notification: ConversationMembersChangedNotification) async throws {}
    public func conversationRemoved(_ notification: ConversationMembersChangedNotification) async throws {}
    public func clientOnline(_ notification: ClientOnlineNotification) async throws {}
    public func clientOffline(_ notification: ClientOfflineNotification) async throws {}
}
