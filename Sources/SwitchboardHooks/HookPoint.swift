/// The places where operators' code decides what happens. Names and parameters are
/// LeanCloud's LeanMessage hooks, so that hook code ports by copying the file.
public enum HookPoint: String, Sendable, CaseIterable, Codable {
    case messageReceived = "_messageReceived"
    case receiversOffline = "_receiversOffline"
    case messageSent = "_messageSent"
    case messageUpdate = "_messageUpdate"
    case conversationStart = "_conversationStart"
    case conversationStarted = "_conversationStarted"
    case conversationAdd = "_conversationAdd"
    case conversationAdded = "_conversationAdded"
    case conversationRemove = "_conversationRemove"
    case conversationRemoved = "_conversationRemoved"
    case conversationUpdate = "_conversationUpdate"
    case clientOnline = "_clientOnline"
    case clientOffline = "_clientOffline"

    /// The LeanEngine script API name, e.g. `onIMMessageReceived`.
    public var scriptFunctionName: String {
        "onIM" + rawValue.dropFirst().prefix(1).uppercased() + rawValue.dropFirst(2)
    }

    /// Blocking hooks run before the request is carried out and can change or stop it;
    /// the others are told afterwards and never delay anything.
    public var isBlocking: Bool {
        switch self {
        case .messageReceived, .receiversOffline, .messageUpdate, .conversationStart, .conversationAdd,
             .conversationRemove, .conversationUpdate:
            true
        case .messageSent, .conversationStarted, .conversationAdded, .conversationRemoved, .clientOnline, .clientOffline:
            false
        }
    }
}
