import Foundation

/// The settings of a maker whose access token comes by OAuth client credentials (Huawei, Honor).
protocol OAuthVendorSettings: VendorPushSettings {
    var tokenURL: URL { get }
    var clientID: String { get }
    var clientSecret: String { get }
}

extension VendorTokenAccount where Settings: OAuthVendorSettings {
    /// Each of `settings` with its OAuth access token; accounts of one OAuth client (one app
    /// configured under several profiles) share one.
    static func oauthAccounts(_ settings: [Settings], service: String) -> [Self] {
        accounts(settings, sharedBy: { $0.clientID }) { settings in
            OAuthClientCredentials(
                service: service, tokenURL: settings.tokenURL, clientID: settings.clientID, clientSecret: settings.clientSecret,
                client: PushHTTPClients.client(trustRootsFile: settings.common.trustRootsFile)
            ).accessToken()
        }
    }
}
