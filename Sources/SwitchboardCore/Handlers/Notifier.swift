import SwitchboardWire

/// Sends a server-initiated command to every connection of some clients.
struct Notifier: Sendable {
    let presence: Presence

    func notify(_ clientIDs: some Sequence<String>, _ command: GenericCommand) {
        for clientID in Set(clientIDs) {
            var addressed = command
            addressed.peerID = clientID
            for connection in presence.connections(of: clientID) where HeldNotices.current?.hold(addressed, for: connection) != true {
                connection.outbox.send(addressed)
            }
        }
    }
}
