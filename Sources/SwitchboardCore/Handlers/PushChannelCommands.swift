import SwitchboardWire

/// The Android SDK's push channel: `login` with the installation id, which it sends first on
/// every connection it opens, and `ack` of the pushes it was sent (java-unified-sdk
/// `realtime/.../session/LCConnectionManager.java` 339-348, `command/LoginPacket.java`,
/// `command/PushAckPacket.java`).
struct PushChannelCommands: Sendable {
    /// LeanCloud's installation ids are 32 hex digits or a UUID; anything far longer is not one.
    static let maxInstallationIDBytes = 128

    let context: CoreContext
    let channels: PushChannels
    let push: LongConnectionPush

    /// `login`: the connection now carries the installation's pushes. Answered `loggedin` with
    /// `service` 0 on the wire, the only `loggedin` the SDK takes for its push channel
    /// (`LCConnectionManager.java` 403-417).
    func login(_ request: GenericCommand, on connection: Connection) throws -> GenericCommand {
        guard request.appID == context.settings.appID else {
            throw CommandError(.appNotAvailable, detail: "unknown appId \(request.appID)")
        }
        let installationID = request.installationID
        guard !installationID.isEmpty, installationID.utf8.count <= Self.maxInstallationIDBytes else {
            throw CommandError(.invalidLogin, detail: "installationId is 1 to \(Self.maxInstallationIDBytes) bytes")
        }
        channels.open(installationID, on: connection)
        context.logger.info("push channel opened", metadata: ["installation": "\(installationID)", "connection": "\(connection.id)"])
        var reply = GenericCommand()
        reply.cmd = .loggedin
        reply.service = RealtimeService.push
        reply.installationID = installationID
        if request.hasI { reply.i = request.i }
        return reply
    }

    /// Whether `request` is the push channel's `ack`: it names the installation and no
    /// client (the IM acks name their client in `peerId`).
    static func isPushAck(_ request: GenericCommand) -> Bool {
        request.cmd == .ack && request.hasInstallationID && !request.installationID.isEmpty && !request.hasPeerID
    }

    /// The device has the pushes `ids`: counted. No reply.
    func acknowledge(_ request: GenericCommand, on connection: Connection) {
        guard channels.installation(on: connection.id) == request.installationID else { return }
        push.counters.acknowledged.increment(by: Int64(request.ackMessage.ids.count))
    }
}
