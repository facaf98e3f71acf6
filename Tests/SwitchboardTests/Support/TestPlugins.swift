import Foundation
import Synchronization
import SwitchboardHooks
import SwitchboardJSON

/// A plugin whose `_messageReceived` answer is a closure, for pipeline tests.
struct ScriptedPlugin: SwitchboardPlugin {
    let name: String
    var priority: Int = 0
    var budget: Duration? = nil
    var failurePolicy: FailurePolicy? = nil
    let answer: @Sendable (MessageReceivedRequest) async throws -> MessageResult

    func messageReceived(_ request: MessageReceivedRequest) async throws -> MessageResult {
        try await answer(request)
    }
}

/// Records every hook point it is called at, with the parameters as scripts see them.
final class RecordingPlugin: SwitchboardPlugin {
    let name = "recorder"
    private let calls = Mutex<[(HookPoint, JSONValue)]>([])

    func record(_ request: some HookRequest) {
        calls.withLock { $0.append((request.point, request.params)) }
    }

    /// Waits until `point` has been called and returns its parameters.
    func params(of point: HookPoint, timeout: Duration = .seconds(5)) async throws -> JSONValue {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let found = calls.withLock({ $0.first { $0.0 == point }?.1 }) { return found }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw TestClient.Timeout(description: "\(point.rawValue) was not called")
    }

    func messageReceived(_ request: MessageReceivedRequest) async throws -> MessageResult { record(request); return .passThrough }
    func messageUpdate(_ request: MessageUpdateRequest) async throws -> MessageResult { record(request); return .passThrough }
    func receiversOffline(_ request: ReceiversOfflineRequest) async throws -> ReceiversOfflineResult { record(request); return .passThrough }
    func conversationStart(_ request: ConversationStartRequest) async throws -> ConversationResult { record(request); return .passThrough }
    func conversationAdd(_ request: ConversationMembersRequest) async throws -> ConversationResult { record(request); return .passThrough }
    func conversationRemove(_ request: ConversationMembersRequest) async throws -> ConversationResult { record(request); return .passThrough }
    func conversationUpdate(_ request: ConversationUpdateRequest) async throws -> ConversationResult { record(request); return .passThrough }
    func messageSent(_ notification: MessageSentNotification) async throws { record(notification) }
    func conversationStarted(_ notification: ConversationStartedNotification) async throws { record(notification) }
    func conversationAdded(_ notification: ConversationMembersChangedNotification) async throws { record(notification) }
    func conversationRemoved(_ notification: ConversationMembersChangedNotification) async throws { record(notification) }
    func clientOnline(_ notification: ClientOnlineNotification) async throws { record(notification) }
    func clientOffline(_ notification: ClientOfflineNotification) async throws { record(notification) }
}

extension MessageReceivedRequest {
    static func sample(_ content: String = "hello") -> MessageReceivedRequest {
        MessageReceivedRequest(
            fromPeer: "alice", convId: "c1", toPeers: ["bob", "carol"], transient: false, bin: false, content: content,
            receipt: false, timestamp: 1, system: false, sourceIP: "127.0.0.1"
        )
    }
}

extension MessageSentNotification {
    static func sample() -> MessageSentNotification {
        MessageSentNotification(
            fromPeer: "alice", convId: "c1", msgId: "m1", onlinePeers: ["bob"], offlinePeers: [], transient: false,
            system: false, bin: false, content: "hello", receipt: false, timestamp: 1, sourceIP: "127.0.0.1"
        )
    }
}
