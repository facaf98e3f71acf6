import SwitchboardHooks
import SwitchboardJSON

/// The conversation hook points as the core uses them. A rejection becomes 4305 with the
/// hook's `code` and `detail` as `appCode` and `appMsg`.
struct ConversationHooks: Sendable {
    let pipeline: HookPipeline
    let background: WorkQueue

    func start(initBy: String, members: [String], attr: [String: JSONValue]) async throws {
        try await decide(ConversationStartRequest(initBy: initBy, members: members, attr: .object(attr)))
    }

    func started(_ conversationID: String) async {
        await background.notify(pipeline, ConversationStartedNotification(convId: conversationID))
    }

    func changeMembers(_ change: ConversationMembersRequest.Change, initBy: String, members: [String], conversationID: String) async throws {
        try await decide(ConversationMembersRequest(change: change, initBy: initBy, members: members, convId: conversationID))
    }

    func membersChanged(_ change: ConversationMembersRequest.Change, initBy: String, members: [String], conversationID: String) async {
        await background.notify(pipeline, ConversationMembersChangedNotification(change: change, initBy: initBy, convId: conversationID, members: members))
    }

    /// Returns the change to carry out, which a handler may have replaced.
    func update(initBy: String, conversationID: String, change: ConversationUpdateRequest.Change) async throws -> ConversationUpdateRequest.Change {
        try await decide(ConversationUpdateRequest(initBy: initBy, convId: conversationID, change: change)).change
    }

    @discardableResult
    private func decide<Request: HookRequest>(_ request: Request) async throws -> Request {
        guard pipeline.hasHandlers(for: request.point) else { return request }
        let outcome = await pipeline.run(request)
        if let stop = outcome.stop {
            throw CommandError(.conversationRejectedByApp, detail: stop.detail, appCode: stop.code, appMessage: stop.detail)
        }
        return outcome.request
    }
}
