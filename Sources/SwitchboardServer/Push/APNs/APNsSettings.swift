import Foundation

/// How to reach Apple's push service with token authentication (`push.apns` in the config).
public struct APNsSettings: Sendable, Equatable {
    /// The `.p8` key file, its key id, and the team it belongs to: for both environments, or
    /// for production alone when the development key is set too.
    public var keyFile: String
    public var keyID: String
    public var teamID: String
    /// A second key for the development (sandbox) environment: Apple lets a team limit a key
    /// to one environment. Both set, or neither.
    public var developmentKeyFile: String?
    public var developmentKeyID: String?
    /// The app's bundle id (`apns-topic`).
    public var topic: String
    /// Where production pushes go, and development ones (`_profile: "dev"`).
    public var productionURL = URL(string: "https://api.push.apple.com")!
    public var developmentURL = URL(string: "https://api.sandbox.push.apple.com")!
    /// PEM certificates to trust instead of the system's (a proxy, or a test stand-in).
    public var trustRootsFile: String?
    /// Tries for a push that APNs answers 429 or 5xx, or that gets no answer: after a failed
    /// connection, waiting `firstRetry`, then twice as long each time; after an answer that
    /// APNs is busy or failing, `busyRetry` each time (Apple asks for much longer waits then).
    public var attempts = 5
    public var firstRetry: Duration = .seconds(1)
    public var busyRetry: Duration = .seconds(60)

    public init(keyFile: String, keyID: String, teamID: String, topic: String) {
        self.keyFile = keyFile
        self.keyID = keyID
        self.teamID = teamID
        self.topic = topic
    }

    func url(for environment: APNsEnvironment) -> URL {
        environment == .production ? productionURL : developmentURL
    }
}
