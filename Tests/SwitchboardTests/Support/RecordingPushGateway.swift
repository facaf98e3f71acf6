import SwitchboardCore

/// Keeps every push decision, for tests to read.
final class RecordingPushGateway: PushGateway {
    private let notices = WatchedValue<[PushNotice]>([])

    func push(_ notice: PushNotice) async {
        notices.update { $0.append(notice) }
    }

    /// Waits for the next push decision.
    func next(timeout: Duration = .seconds(5)) async throws -> PushNotice {
        guard let notice = await notices.wait(timeout: timeout, take: { $0.isEmpty ? nil : $0.removeFirst() }) else {
            throw TestClient.Timeout(description: "no push within \(timeout)")
        }
        return notice
    }

    var isEmpty: Bool { notices.value.isEmpty }
}
