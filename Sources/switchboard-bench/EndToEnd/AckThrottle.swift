import Foundation
import Synchronization
import SwitchboardWire

/// Acknowledges received messages as LeanCloud's JavaScript SDK does (`_sendAck` in its
/// `im-client.js`): messages wait in a buffer per conversation, and the buffer goes out at
/// most once a second (at once if the last send was over a second ago, else when that second
/// is up), one `ack` per conversation covering its oldest to newest timestamp.
final class AckThrottle: Sendable {
    static let interval: Duration = .seconds(1)

    private struct State {
        var buffered: [String: ClosedRange<Int64>] = [:]
        var lastSent: ContinuousClock.Instant?
        var trailingSendScheduled = false
    }

    private let client: BenchClient
    private let state = Mutex(State())

    init(client: BenchClient) {
        self.client = client
    }

    func acknowledge(_ message: DirectCommand) {
        let sendsNow = state.withLock { state -> Bool in
            let range = state.buffered[message.cid].map { min($0.lowerBound, message.timestamp)...max($0.upperBound, message.timestamp) }
            state.buffered[message.cid] = range ?? message.timestamp...message.timestamp
            if let lastSent = state.lastSent, ContinuousClock.now - lastSent < Self.interval {
                guard !state.trailingSendScheduled else { return false }
                state.trailingSendScheduled = true
                let wait = Self.interval - (ContinuousClock.now - lastSent)
                Task { [self] in
                    try? await Task.sleep(for: wait)
                    flush()
                }
                return false
            }
            return true
        }
        if sendsNow { flush() }
    }

    private func flush() {
        let buffered = state.withLock { state in
            defer {
                state.buffered.removeAll()
                state.lastSent = .now
                state.trailingSendScheduled = false
            }
            return state.buffered
        }
        for (cid, range) in buffered { client.send(Self.ack(cid, range)) }
    }

    static func ack(_ cid: String, _ timestamps: ClosedRange<Int64>) -> GenericCommand {
        var ack = GenericCommand()
        ack.cmd = .ack
        ack.ackMessage.cid = cid
        ack.ackMessage.fromts = timestamps.lowerBound
        ack.ackMessage.tots = timestamps.upperBound
        return ack
    }
}
