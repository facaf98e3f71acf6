import Synchronization
import SwitchboardWire

/// The Android SDK's push channel on this node: the connections that said `login` with an
/// installation id, by installation. One connection carries at most one installation (the
/// SDK's process has one); an installation may be on several connections a while (an app
/// restarted before its old socket timed out), and each gets its pushes.
final class PushChannels: Sendable {
    private struct State {
        var connections: [String: [UInt64: Connection]] = [:]
        var installations: [UInt64: String] = [:]
    }

    private let state = Mutex(State())

    /// `connection` now carries `installationID`'s pushes, and no other installation's.
    func open(_ installationID: String, on connection: Connection) {
        state.withLock { state in
            Self.remove(connection.id, from: &state)
            state.connections[installationID, default: [:]][connection.id] = connection
            state.installations[connection.id] = installationID
        }
    }

    /// The connection ended.
    func close(connectionID: UInt64) {
        state.withLock { Self.remove(connectionID, from: &$0) }
    }

    /// The installation whose pushes `connectionID` carries.
    func installation(on connectionID: UInt64) -> String? {
        state.withLock { $0.installations[connectionID] }
    }

    /// Sends `command`, addressed to `installationID`, to the connections here that carry
    /// it; false when none do.
    func send(_ command: GenericCommand, to installationID: String) -> Bool {
        let connections = state.withLock { Array(($0.connections[installationID] ?? [:]).values) }
        var addressed = command
        addressed.installationID = installationID
        for connection in connections {
            connection.outbox.send(addressed)
        }
        return !connections.isEmpty
    }

    private static func remove(_ connectionID: UInt64, from state: inout State) {
        guard let installationID = state.installations.removeValue(forKey: connectionID) else { return }
        state.connections[installationID]?[connectionID] = nil
        if state.connections[installationID]?.isEmpty == true { state.connections[installationID] = nil }
    }
}
