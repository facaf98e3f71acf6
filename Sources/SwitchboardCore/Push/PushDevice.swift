/// A device a push can go to: the token its push service knows it by, and that service.
public struct PushDevice: Sendable, Hashable {
    /// The service that reaches a device: Apple's, Firebase's, or whichever the `provider`
    /// (log or webhook) passes pushes on to.
    public enum Service: String, Sendable {
        case apns, fcm, other
    }

    public var token: String
    public var service: Service

    /// A device as the store knows it. `deviceType` and `vendor` come from its installation
    /// when it has one (an Android device reaches FCM by its `vendor` `fcm` registration id);
    /// a token from login alone goes by its shape: LeanCloud's iOS SDKs log in with the APNs
    /// token, 32 bytes or more in hex.
    public init(token: String, deviceType: String?, vendor: String?) {
        self.token = token
        service = switch (deviceType, vendor) {
        case ("ios", _): .apns
        case ("android", "fcm"): .fcm
        case (nil, _) where Self.isAPNsToken(token): .apns
        default: .other
        }
    }

    static func isAPNsToken(_ token: String) -> Bool {
        token.utf8.count >= 64 && token.utf8.count % 2 == 0 && token.utf8.allSatisfy { hexDigits.contains($0) }
    }

    private static let hexDigits = Set("0123456789abcdefABCDEF".utf8)
}
