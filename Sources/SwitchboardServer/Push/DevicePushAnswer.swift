/// What a push service answered for one device's push.
enum DevicePushAnswer: Sendable {
    case accepted
    /// The token no longer reaches a device: it is forgotten.
    case deadToken(String)
    /// Refused for a reason trying again will not change.
    case refused(String)
    /// Failed for now (429, 5xx, the network): tried again.
    case later(String)
}
