/// Whose devices a stored message waits for until each acknowledges it.
public enum Queueing: Sendable, Equatable {
    /// Nobody's: chat rooms keep history but queue nothing; only members online receive.
    case nobody
    /// Every member's but the sender's. Kept as each device's position in the conversation (the
    /// last message it acknowledged), so storing the message writes nothing per recipient; a
    /// member that never logged in still gets a copy queued for its first device.
    case everyMember
    /// Only these clients' (`toPeers`, an audience, a hook's choice of recipients): a copy
    /// queued for each of their devices.
    case only([String])
}
