/// A chat-room message's priority (the command's `priority`: 1 high, 2 normal, 3 low, as
/// LeanCloud's SDKs send it). When a receiver's connection backs up, low-priority messages
/// are left out first, then normal ones; high-priority messages always go. Outside chat
/// rooms every message goes.
public enum MessagePriority: Int32, Sendable {
    case high = 1
    case normal = 2
    case low = 3

    public init(wire value: Int32) {
        self = MessagePriority(rawValue: value) ?? .normal
    }

    /// Whether a message goes to a connection with `backlog` commands queued unwritten.
    /// The gateway closes a connection whose queue reaches 4,096; shedding starts well before.
    func admits(backlog: Int) -> Bool {
        switch self {
        case .high: true
        case .normal: backlog < 1024
        case .low: backlog < 256
        }
    }
}
