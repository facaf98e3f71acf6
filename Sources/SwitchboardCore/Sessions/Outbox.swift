import SwitchboardWire

/// Where the core writes to one client connection. The gateway implements it over a
/// WebSocket; writes never block the caller.
public protocol Outbox: Sendable {
    func send(_ command: GenericCommand)
    /// Sends `shared` addressed to `peerID`, one of the many it goes to.
    func send(_ shared: SharedCommand, to peerID: String)
    /// Commands queued and not yet written: how far the client is behind.
    var backlog: Int { get }
    /// Sends nothing more and closes the connection once what was queued is written.
    func close()
    /// False once the connection has ended (closed by either side), while what it received
    /// before may still be being handled.
    var isOpen: Bool { get }
}

extension Outbox {
    public func send(_ shared: SharedCommand, to peerID: String) {
        send(shared.addressed(to: peerID))
    }
}
