import SwitchboardJSON

/// A device as LeanCloud's push knew it (`_Installation`): the SDKs save one from the app
/// and subscribe it to a channel per client id, which is how an offline member's pushes
/// find devices the IM login did not name (Android's above all).
public struct Installation: Sendable, Equatable {
    public enum DeviceType: String, Sendable {
        case ios, android
    }

    public var deviceType: DeviceType
    /// The APNs token (iOS).
    public var deviceToken: String?
    /// The SDK's own id for the device (Android).
    public var installationID: String?
    /// The push service's token for the device: Firebase's (`vendor` `fcm`) or its maker's
    /// (`HMS`, `honor`, `mi`, `oppo`, `vivo`, `mz`; see `PushDevice.Service`).
    public var registrationID: String?
    public var vendor: String?
    /// Which of the app's accounts with `vendor` the device registered through, for apps
    /// with several (LeanCloud's mixed push); empty or nil for the default account.
    public var deviceProfile: String?
    public var channels: [String]

    public init(
        deviceType: DeviceType, deviceToken: String? = nil, installationID: String? = nil, registrationID: String? = nil,
        vendor: String? = nil, deviceProfile: String? = nil, channels: [String] = []
    ) {
        self.deviceType = deviceType
        self.deviceToken = deviceToken
        self.installationID = installationID
        self.registrationID = registrationID
        self.vendor = vendor
        self.deviceProfile = deviceProfile
        self.channels = channels
    }

    /// How a `PUT` changes `channels`: LeanCloud's array operations, or a new array.
    public enum ChannelChange: Sendable, Equatable {
        case set([String])
        case add([String])
        case remove([String])
    }
}

/// An installation as the store keeps it, for `GET /1.1/installations/<id>`.
public struct SavedInstallation: Sendable, Equatable {
    public var objectID: String
    public var installation: Installation
    public var badge: Int
    /// Milliseconds since 1970.
    public var createdAt: Int64
    public var updatedAt: Int64

    public init(objectID: String, installation: Installation, badge: Int, createdAt: Int64, updatedAt: Int64) {
        self.objectID = objectID
        self.installation = installation
        self.badge = badge
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

extension SavedInstallation {
    /// The device as LeanCloud's `_Installation` object: `GET /1.1/installations/<id>`'s
    /// answer and the class's rows. Fields the device does not have are left out.
    public var storageObject: JSONValue {
        var object: [String: JSONValue] = [
            "objectId": .string(objectID), "deviceType": .string(installation.deviceType.rawValue), "badge": .int(Int64(badge)),
            "channels": .strings(installation.channels),
            "createdAt": .string(ISODate.string(milliseconds: createdAt)), "updatedAt": .string(ISODate.string(milliseconds: updatedAt)),
        ]
        for (key, value) in [
            ("deviceToken", installation.deviceToken), ("installationId", installation.installationID),
            ("registrationId", installation.registrationID), ("vendor", installation.vendor), ("deviceProfile", installation.deviceProfile),
        ] {
            if let value { object[key] = .string(value) }
        }
        return .object(object)
    }
}
