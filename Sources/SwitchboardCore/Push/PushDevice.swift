/// A device a push can go to: the token its push service knows it by, that service, and the
/// vendor account it registered with.
public struct PushDevice: Sendable, Hashable {
    /// The service that reaches a device: Apple's, Firebase's, a Chinese Android maker's own
    /// (LeanCloud's "mixed push"), the SDK's own connection to the server (an Android device
    /// with no maker's service, by its installation id: `longConnection`), or whichever the
    /// `provider` (log or webhook) passes pushes on to.
    public enum Service: String, Sendable, CaseIterable {
        case apns, fcm, huawei, honor, xiaomi, oppo, vivo, meizu
        case longConnection = "long_connection"
        case other

        /// The services an Android installation's `vendor` names, as LeanCloud's mixed-push
        /// modules save it (java-unified-sdk's `mixpush-*`); such a device is reached by its
        /// `registrationId`.
        public static let byVendor: [String: Service] = [
            "fcm": .fcm, "HMS": .huawei, "honor": .honor, "mi": .xiaomi, "oppo": .oppo, "vivo": .vivo, "mz": .meizu,
        ]
    }

    public var token: String
    public var service: Service
    /// The installation's `deviceProfile`: which of several accounts the app has with its
    /// vendor the device registered through; nil or empty for the default one.
    public var profile: String?

    public init(token: String, service: Service, profile: String? = nil) {
        self.token = token
        self.service = service
        self.profile = profile
    }

    /// A device as the store knows it. `deviceType` and `vendor` come from its installation
    /// when it has one (an Android device reaches its vendor's service by its registration id);
    /// a token from login alone goes by its shape: LeanCloud's iOS SDKs log in with the APNs
    /// token, 32 bytes or more in hex.
    public init(token: String, deviceType: String?, vendor: String?, profile: String? = nil) {
        let service: Service = switch (deviceType, vendor) {
        case ("ios", _): .apns
        // No maker's service, or `lc` ("use the WebSocket", which the mixed-push modules save
        // when they unregister): the SDK's own connection.
        case ("android", nil), ("android", .some(Self.longConnectionVendor)): .longConnection
        case ("android", let vendor?): Service.byVendor[vendor] ?? .other
        case (nil, _) where Self.isAPNsToken(token): .apns
        default: .other
        }
        self.init(token: token, service: service, profile: profile)
    }

    /// The `vendor` of an Android installation reached over the SDK's own connection.
    public static let longConnectionVendor = "lc"

    static func isAPNsToken(_ token: String) -> Bool {
        token.utf8.count >= 64 && token.utf8.count % 2 == 0 && token.utf8.allSatisfy { hexDigits.contains($0) }
    }

    /// Whether a login's `deviceToken` is the device's UUID that the Apple SDKs send until APNs
    /// gives a token: hyphenated (objc-sdk `LCUtils.m`' CFUUID, swift-sdk's
    /// `identifierForVendor`) or compact (swift-sdk `Utility.swift`' fallback).
    static func isDeviceUUID(_ token: String) -> Bool {
        let bytes = Array(token.utf8)
        let hyphens: Set<Int> = bytes.count == 36 ? [8, 13, 18, 23] : []
        guard bytes.count == 32 || bytes.count == 36 else { return false }
        return bytes.indices.allSatisfy { hyphens.contains($0) ? bytes[$0] == UInt8(ascii: "-") : hexDigits.contains(bytes[$0]) }
    }

    private static let hexDigits = Set("0123456789abcdefABCDEF".utf8)
}
