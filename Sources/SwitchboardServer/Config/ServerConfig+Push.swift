import Foundation

/// The sections of `push`: where push decisions go, and Apple's and Google's services.
extension ServerConfig {
    /// `push.provider` and the keys of the provider it names.
    static var pushProvider: Setting {
        Setting(keysOf: "push", [
            .field("provider", "`log` or `webhook`", "`log`", "where push decisions go: `log` writes one JSON line per push to `file`; `webhook` POSTs each push to `url`"),
            .field("file", String.self, "`push.log` in `storage.dataDir`", "the log provider's file"),
            .field("url", String.self, "none", "the webhook provider's http(s) URL"),
            .field("attempts", Int.self, "`5`", "webhook tries for a push"),
            .field("firstRetryMs", Duration.self, "`1000`", "the wait before the second try, doubling after each"),
        ], sets: [\.pushProvider]) { push, config in
            switch try push.read("provider", as: String.self) ?? "log" {
            case "log":
                config.pushProvider = .log(file: try push.read("file"))
            case "webhook":
                guard let text = try push.read("url", as: String.self), let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
                    throw ConfigError("push.url: the webhook provider needs an http(s) URL")
                }
                config.pushProvider = .webhook(url: url, attempts: try push.read("attempts") ?? 5, firstRetry: try push.read("firstRetryMs") ?? .milliseconds(1000))
            case let other:
                throw ConfigError("push.provider: \(other) is not a provider; expected log or webhook")
            }
        }
    }

    /// `push.apns`: one Apple team's key, or a list of them chosen by `_apns_team_id`.
    static var apnsAccounts: Setting {
        let defaults = APNsSettings(keyFile: "", keyID: "", teamID: "", topic: "")
        return Setting(section: "push.apns", type: "section or list", default: "none",
                       "iPhones straight to Apple, with the key of the team a push's `_apns_team_id` names, else the first's; the rest go to `push.provider`", fields: [
            .field("keyFile", String.self, "required", "the team's `.p8` key, for both environments (or production alone with `developmentKeyFile`)"),
            .field("keyId", String.self, "required", "its key id"),
            .field("teamId", String.self, "required", "the team it belongs to; each team once"),
            .field("topic", String.self, "required", "the app's bundle id (`apns-topic`)"),
            .field("developmentKeyFile", String.self, "none", "a key limited to the development environment; with `developmentKeyId`"),
            .field("developmentKeyId", String.self, "none", "its key id"),
            .field("productionUrl", "where production pushes go (https)", defaults, \.productionURL.absoluteString),
            .field("developmentUrl", "where development pushes go (`_profile: \"dev\"`)", defaults, \.developmentURL.absoluteString),
            .field("trustRootsFile", String.self, "none", "PEM certificates to trust instead of the system's (a proxy, a test stand-in)"),
            .field("attempts", "tries for a push APNs answers 429 or 5xx, or gets no answer for", defaults, \.attempts),
            .field("firstRetryMs", "the wait after a failed connection, doubling after each", defaults, \.firstRetry),
            .field("busyRetryMs", "the wait after an answer that APNs is busy or failing", defaults, \.busyRetry),
        ], sets: [\.apns]) { apns, config in
            config.apns = try apns.items.map(apnsSettings)
            let teams = config.apns.map(\.teamID)
            guard Set(teams).count == teams.count else { throw ConfigError("push.apns: each team once") }
        }
    }

    private static func apnsSettings(_ apns: ConfigValue) throws -> APNsSettings {
        guard let keyFile = try apns.read("keyFile", as: String.self), let keyID = try apns.read("keyId", as: String.self),
              let teamID = try apns.read("teamId", as: String.self), let topic = try apns.read("topic", as: String.self)
        else {
            throw ConfigError("push.apns: keyFile, keyId, teamId and topic are all required")
        }
        guard FileManager.default.isReadableFile(atPath: keyFile) else { throw ConfigError("push.apns.keyFile: cannot read \(keyFile)") }
        var settings = APNsSettings(keyFile: keyFile, keyID: keyID, teamID: teamID, topic: topic)
        switch try (apns.read("developmentKeyFile", as: String.self), apns.read("developmentKeyId", as: String.self)) {
        case (nil, nil):
            break
        case (let file?, let keyID?):
            guard FileManager.default.isReadableFile(atPath: file) else { throw ConfigError("push.apns.developmentKeyFile: cannot read \(file)") }
            settings.developmentKeyFile = file
            settings.developmentKeyID = keyID
        default:
            throw ConfigError("push.apns: developmentKeyFile and developmentKeyId go together")
        }
        for (name, keyPath) in [("productionUrl", \APNsSettings.productionURL), ("developmentUrl", \APNsSettings.developmentURL)] {
            guard let text = try apns.read(name, as: String.self) else { continue }
            guard let url = URL(string: text), url.scheme == "https" else { throw ConfigError("push.apns.\(name): an https URL") }
            settings[keyPath: keyPath] = url
        }
        settings.trustRootsFile = try apns.read("trustRootsFile")
        settings.attempts = try apns.read("attempts") ?? settings.attempts
        settings.firstRetry = try apns.read("firstRetryMs") ?? settings.firstRetry
        settings.busyRetry = try apns.read("busyRetryMs") ?? settings.busyRetry
        return settings
    }

    /// `push.fcm`: Android devices on Firebase straight to FCM.
    static var fcmAccount: Setting {
        let defaults = FCMSettings(serviceAccountFile: "")
        return Setting(section: "push.fcm", type: "section", default: "none", "Android devices on FCM get their pushes from Firebase; the rest go to `push.provider`", fields: [
            .field("serviceAccountFile", String.self, "required", "the service account's JSON key (Firebase console, Project settings, Service accounts)"),
            .field("sendUrl", "where messages are sent (https)", defaults, \.sendURL.absoluteString),
            .field("trustRootsFile", String.self, "none", "PEM certificates to trust instead of the system's (a proxy, a test stand-in)"),
            .field("attempts", "tries for a push FCM answers 429 or 5xx", defaults, \.attempts),
            .field("firstRetryMs", "the wait before the second try, doubling after each", defaults, \.firstRetry),
        ], sets: [\.fcm]) { fcm, config in
            guard let file = try fcm.read("serviceAccountFile", as: String.self) else { throw ConfigError("push.fcm: serviceAccountFile is required") }
            guard FileManager.default.isReadableFile(atPath: file) else { throw ConfigError("push.fcm.serviceAccountFile: cannot read \(file)") }
            var settings = FCMSettings(serviceAccountFile: file)
            if let text = try fcm.read("sendUrl", as: String.self) {
                guard let url = URL(string: text), url.scheme == "https" else { throw ConfigError("push.fcm.sendUrl: an https URL") }
                settings.sendURL = url
            }
            settings.trustRootsFile = try fcm.read("trustRootsFile")
            settings.attempts = try fcm.read("attempts") ?? settings.attempts
            settings.firstRetry = try fcm.read("firstRetryMs") ?? settings.firstRetry
            config.fcm = settings
        }
    }
}
