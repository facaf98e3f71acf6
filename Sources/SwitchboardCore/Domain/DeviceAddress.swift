/// One device of a client: what queues, acknowledgements and catch-up are kept for. The key
/// is the `deviceId` the SDK sends at login (the JavaScript and Android SDKs), else its
/// `deviceToken` (the Apple SDKs), else its `tag`, else empty: the client's default device
/// (a login that names none of them shares one queue per client).
public struct DeviceAddress: Hashable, Sendable {
    public var clientID: String
    public var key: String

    public init(clientID: String, key: String) {
        self.clientID = clientID
        self.key = key
    }

    /// The device a login names: `deviceID` is its `deviceId` or `deviceToken`.
    public init(clientID: String, deviceID: String?, tag: String?) {
        self.init(clientID: clientID, key: deviceID.flatMap { $0.isEmpty ? nil : $0 } ?? tag ?? "")
    }
}
