import Foundation

/// The fields of a Google service account's JSON key that FCM needs.
struct FCMServiceAccount: Decodable, Sendable {
    let projectID: String
    let clientEmail: String
    let privateKey: String
    let privateKeyID: String?
    let tokenURI: URL

    enum CodingKeys: String, CodingKey {
        case projectID = "project_id", clientEmail = "client_email", privateKey = "private_key"
        case privateKeyID = "private_key_id", tokenURI = "token_uri"
    }

    /// Reads and checks the key file; the error says what is wrong with it.
    init(file: String) throws {
        guard let data = FileManager.default.contents(atPath: file) else { throw ConfigError("push.fcm.serviceAccountFile: cannot read \(file)") }
        do {
            self = try JSONDecoder().decode(Self.self, from: data)
        } catch {
            throw ConfigError("push.fcm.serviceAccountFile: not a service account key (project_id, client_email, private_key, token_uri): \(error)")
        }
        guard tokenURI.scheme == "https" else { throw ConfigError("push.fcm.serviceAccountFile: token_uri must be https") }
    }
}
