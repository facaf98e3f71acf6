/// Apple's two push environments. A device token belongs to one of them, as the app's build
/// was signed: a build run from Xcode gets a sandbox (development) token, TestFlight, Ad Hoc
/// and App Store builds production ones; the other environment calls it `BadDeviceToken`.
enum APNsEnvironment: String, Sendable, Hashable {
    case production, development

    var other: APNsEnvironment {
        self == .production ? .development : .production
    }
}
