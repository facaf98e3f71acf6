import Foundation
import Logging
import SwitchboardWire

/// The shared parts every command handler works with.
struct CoreContext: Sendable {
    let settings: CoreSettings
    let store: any MessageStore
    let presence: Presence
    let deliveryTimes = DeliveryTimes()
    let clock: ServerClock
    let logger: Logger
    let signatures: SignatureCheck
    let access: ConversationAccess
    /// The other nodes sharing the store, if any.
    let link: any NodeLink

    init(settings: CoreSettings, store: any MessageStore, presence: Presence, link: any NodeLink, clock: ServerClock, logger: Logger) {
        self.settings = settings
        self.store = store
        self.presence = presence
        self.link = link
        self.clock = clock
        self.logger = logger
        signatures = SignatureCheck(
            signer: Signature(appID: settings.appID, masterKey: settings.masterKey), maxAge: settings.signatureMaxAge, link: link, clock: clock.wall
        )
        access = ConversationAccess(privateConversations: settings.privateConversations)
    }
}

extension CoreContext {
    /// Which of `clientIDs` have a session open, here or on another node.
    func online(among clientIDs: [String]) async -> Set<String> {
        var online: Set<String> = []
        var elsewhere: [String] = []
        for clientID in clientIDs {
            if presence.isOnline(clientID) { online.insert(clientID) } else { elsewhere.append(clientID) }
        }
        guard !elsewhere.isEmpty else { return online }
        return online.union(await link.onlineElsewhere(elsewhere))
    }

    /// Sends `command` to every session of `clientIDs` on the other nodes; each session
    /// gets it addressed to its client.
    func relay(_ command: GenericCommand, to clientIDs: [String]) {
        link.publish(.notice(command: Data(SharedCommand(command).protobuf), recipients: clientIDs))
    }

    /// Sends `command` to every session of `clientIDs` on this node, addressed to each; an
    /// `unread` notice only where the subprotocol has them (`lc.protobuf2.3`).
    func sendHere(_ command: GenericCommand, to clientIDs: some Sequence<String>) {
        for clientID in clientIDs {
            var addressed = command
            addressed.peerID = clientID
            for connection in presence.connections(of: clientID) where command.cmd != .unread || connection.missedMessages == .unreadCounts {
                connection.outbox.send(addressed)
            }
        }
    }

    /// Records that a device went offline (logout or lost connection) at `time`, now unless
    /// given: what is kept for it from then on is what its next login receives.
    func deviceLeft(_ device: DeviceAddress, at time: Int64? = nil) async {
        if !presence.sessions(of: device.clientID).contains(where: { $0.device == device }) {
            deliveryTimes.forget(device)
        }
        do {
            try await store.deviceSeen(device, at: time ?? clock.now())
        } catch {
            logger.error("device not recorded", metadata: ["client": "\(device.clientID)", "error": "\(error)"])
        }
    }
}
