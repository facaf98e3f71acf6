import Logging

/// The shared parts every command handler works with.
struct CoreContext: Sendable {
    let settings: CoreSettings
    let store: any MessageStore
    let presence: Presence
    let clock: ServerClock
    let logger: Logger

    var signature: Signature { Signature(appID: settings.appID, masterKey: settings.masterKey) }
}
