import Testing

extension TestServer {
    /// Saves an Android installation on a maker's push service over the REST API, as
    /// LeanCloud's mixed-push modules save one: `vendor` (`HMS`, `honor`, `mi`, `mz`, `oppo`,
    /// `vivo`), the maker's token as `registrationId`, the account's `deviceProfile`;
    /// subscribed to `clientID`'s channel.
    func installAndroidPhone(_ clientID: String, vendor: String, registrationID: String, profile: String? = nil) async throws {
        var body: [String: Any] = [
            "deviceType": "android", "installationId": "\(clientID)-installation", "vendor": vendor, "registrationId": registrationID, "channels": [clientID],
        ]
        if let profile { body["deviceProfile"] = profile }
        let (status, _) = try await rest("POST", "/1.1/installations", body: body, key: config.appKey)
        #expect(status == 200)
    }
}
