/// What `PUT /1.1/installations/<id>` changes in a saved device; a nil field stays as it
/// is. LeanCloud's Android mixed-push modules save a device's `vendor`, `registrationId` and
/// `deviceProfile` this way once the maker's push service hands them a token.
public struct InstallationChange: Sendable, Equatable {
    public var deviceToken: String?
    public var registrationID: String?
    public var vendor: String?
    public var deviceProfile: String?
    public var badge: Int?
    public var channels: Installation.ChannelChange?

    public init(
        deviceToken: String? = nil, registrationID: String? = nil, vendor: String? = nil, deviceProfile: String? = nil,
        badge: Int? = nil, channels: Installation.ChannelChange? = nil
    ) {
        self.deviceToken = deviceToken
        self.registrationID = registrationID
        self.vendor = vendor
        self.deviceProfile = deviceProfile
        self.badge = badge
        self.channels = channels
    }
}
