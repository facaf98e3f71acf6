import SwitchboardWire

/// Sends a server-initiated command to every connection of some clients.
struct Notifier: Sendable {
    let context: CoreContext

    /// Sends `command` to the clients' connections now, on every node. A permanent notice (membership,
    /// roles, changes to the conversation: LeanCloud's notification type 1) is also kept for
    /// the clients' devices that are offline, which receive it at their next login, and
    /// carries the server time it happened so the SDKs can tell where they are.
    func notify(_ clientIDs: some Sequence<String>, _ command: GenericCommand, permanent: Bool) async {
        let recipients = Array(Set(clientIDs))
        var command = command
        if permanent {
            let now = context.clock.now()
            command.serverTs = now
            command.notificationType = Self.permanentType
            do {
                let bytes: [UInt8] = try command.serializedBytes()
                try await context.store.keepNotice(bytes, for: recipients, at: now)
            } catch {
                // The change itself is saved; only devices offline now miss the notice.
                context.logger.error("notice not kept for offline devices", metadata: ["op": "\(command.op)", "error": "\(error)"])
            }
        }
        for clientID in recipients {
            var addressed = command
            addressed.peerID = clientID
            for connection in context.presence.connections(of: clientID) {
                HeldNotices.send(addressed, to: connection)
            }
        }
        context.relay(command, to: recipients)
    }

    /// LeanCloud's `notificationType` of notices an SDK must not miss.
    static let permanentType: Int32 = 1
}
