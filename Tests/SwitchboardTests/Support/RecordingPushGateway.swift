import Synchronization
import SwitchboardCore

/// Keeps every push decision, for tests to read.
final class RecordingPushGateway: PushGateway {
    private let notices = Mutex<[PushNotice]>([])

    func push(_ notice: PushNotice) async {
        notices.withLock { $0.append(notice) }
    }

    /// Waits for the next push decision.
    func next(timeout: Duration = .seconds(5)) async throws -> PushNotice {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let notice = notices.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { return notice }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw TestClient.Timeout(description: "no push within \(timeout)")
    }

    var isEmpty: Bool { notices.withLock { $0.isEmpty } }
}
