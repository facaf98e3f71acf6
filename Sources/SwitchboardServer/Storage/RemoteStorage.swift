import Foundation

/// A LeanStorage-compatible server that hook scripts' `AV.Object` and `AV.Query` calls go
/// to instead of Switchboard's database (`hooks.storage`): LeanCloud's own API server until
/// it shuts down, or the app's own. Switchboard's REST API keeps serving its own database.
public struct RemoteStorage: Sendable, Equatable {
    /// The server's address as `LEANCLOUD_API_SERVER` gives it; calls go to `{url}/1.1/...`.
    public var url: URL
    /// The app's id there, sent as `X-LC-Id`.
    public var appID: String
    /// Calls are signed with it (`X-LC-Sign`), so scripts have master rights, as on LeanEngine.
    public var masterKey: String
    /// A call not answered within this fails with 124. A script's call ends sooner when its
    /// hook call's budget runs out; this bounds what nothing else does.
    public var timeout: Duration = .seconds(10)

    public init(url: URL, appID: String, masterKey: String) {
        self.url = url
        self.appID = appID
        self.masterKey = masterKey
    }
}
