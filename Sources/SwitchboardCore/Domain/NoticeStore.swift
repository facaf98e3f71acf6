/// Notices (serialized commands: a conversation's changes, a kick, …) kept for the clients
/// that were offline when they were sent, replayed when one of their devices logs in.
public protocol NoticeStore: Sendable {
    /// Keeps a notice (a serialized command) for each of `clientIDs`, for their devices that
    /// are offline now.
    func keepNotice(_ command: [UInt8], for clientIDs: [String], at time: Int64) async throws
    /// The notices kept for `clientID` at or after `time`, oldest first.
    func notices(for clientID: String, since time: Int64, limit: Int) async throws -> [[UInt8]]
}
