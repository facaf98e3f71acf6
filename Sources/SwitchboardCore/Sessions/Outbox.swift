import SwitchboardWire

/// Where the core writes to one client connection. The gateway implements it over a
/// WebSocket; writes never block the caller.
public protocol Outbox: Sendable {
    func send(_ command: GenericCommand)
    /// Commands queued and not yet written: how far the client is behind.
    var backlog: Int { get }
    /// Sends nothing more and closes the connection once what was queued is written.
    func close()
}
