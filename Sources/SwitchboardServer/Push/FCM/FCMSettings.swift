import Foundation

/// How to reach Firebase Cloud Messaging's HTTP v1 API (`push.fcm` in the config).
public struct FCMSettings: Sendable, Equatable {
    /// The service account's JSON key (Firebase console, Project settings, Service accounts):
    /// its project, its RSA key, and the `token_uri` access tokens come from.
    public var serviceAccountFile: String
    /// Where messages are sent.
    public var sendURL = URL(string: "https://fcm.googleapis.com")!
    /// PEM certificates to trust instead of the system's (a proxy, or a test stand-in).
    public var trustRootsFile: String?
    /// Tries for a push FCM answers 429 or 5xx, waiting twice as long each time.
    public var attempts = 5
    public var firstRetry: Duration = .seconds(1)

    public init(serviceAccountFile: String) {
        self.serviceAccountFile = serviceAccountFile
    }
}
