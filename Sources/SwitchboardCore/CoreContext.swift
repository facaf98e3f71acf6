import Logging

/// The shared parts every command handler works with.
struct CoreContext: Sendable {
    let settings: CoreSettings
    let store: any MessageStore
    let presence: Presence
    let clock: ServerClock
    let logger: Logger
    let signatures: SignatureCheck
    let access: ConversationAccess

    init(settings: CoreSettings, store: any MessageStore, presence: Presence, clock: ServerClock, logger: Logger) {
        self.settings = settings
        self.store = store
        self.presence = presence
        self.clock = clock
        self.logger = logger
        signatures = SignatureCheck(signer: Signature(appID: settings.appID, masterKey: settings.masterKey), maxAge: settings.signatureMaxAge)
        access = ConversationAccess(privateConversations: settings.privateConversations)
    }
}

extension CoreContext {
    /// Records that a device went offline (logout or lost connection) at `time`, now unless
    /// given: what is kept for it from then on is what its next login receives.
    func deviceLeft(_ device: DeviceAddress, at time: Int64 = ServerClock.wallMilliseconds()) async {
        do {
            try await store.deviceSeen(device, at: time)
        } catch {
            logger.error("device not recorded", metadata: ["client": "\(device.clientID)", "error": "\(error)"])
        }
    }
}
