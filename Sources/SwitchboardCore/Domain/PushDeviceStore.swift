/// The devices pushes go to: those clients registered at login (their push tokens), the
/// installations saved through the REST API and their channels, and each device's badge.
/// Sending a message reads them; push gateways count badges and forget tokens their
/// service rejects; the installation routes save and read installations. Not the devices
/// messages are queued for, which `DeliveryState` keeps by client and device key.
public protocol PushDeviceStore: Sendable {
    /// Remembers a device a client logged in from at `time`, for pushes.
    func registerDevice(clientID: String, token: String, deviceID: String?, at time: Int64) async throws
    /// The devices registered by each of `clientIDs`, at login or by an installation
    /// subscribed to the client's channel (those with none are left out), oldest first.
    func pushDevices(of clientIDs: [String]) async throws -> [String: [PushDevice]]
    /// Saves a device for push; one with the same token or installation id is updated
    /// instead; `time` is when. Returns its object id and whether it is new.
    func saveInstallation(_ installation: Installation, at time: Int64) async throws -> (objectID: String, created: Bool)
    /// Changes a saved device's tokens, vendor, badge or channels at `time`; false when there is no such device.
    func updateInstallation(objectID: String, _ change: InstallationChange, at time: Int64) async throws -> Bool
    /// A saved device with its channels; nil when there is no such device.
    func installation(objectID: String) async throws -> SavedInstallation?
    /// Saved devices with their channels, in object id order, byte by byte, from just past
    /// `objectID`, at most `limit`.
    func installations(after objectID: String?, limit: Int) async throws -> [SavedInstallation]
    /// Forgets a saved device and its channels; false when there was none.
    func deleteInstallation(objectID: String) async throws -> Bool
    /// Counts one more push on each device's badge and returns the counts, by token.
    func countBadges(tokens: [String]) async throws -> [String: Int]
    /// Clears the badge of every device of `clientID`: it has read its messages.
    func clearBadges(of clientID: String) async throws
    /// Forgets a device token its push service says is no longer valid.
    func removeDevice(token: String) async throws
    /// Up to `limit` clients with a registered device, in order of id, after `clientID`.
    func clientsWithDevices(after clientID: String, limit: Int) async throws -> [String]
}
