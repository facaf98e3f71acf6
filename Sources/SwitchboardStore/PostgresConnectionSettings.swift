import Foundation
import PostgresNIO

/// A PostgreSQL URL (`postgres://user:password@host:port/database?sslmode=…`) as the
/// client's configuration. `sslmode` `disable` turns TLS off, `require` insists on it;
/// without it TLS is used when the server offers it.
enum PostgresConnectionSettings {
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    static func configuration(url text: String) throws -> PostgresClient.Configuration {
        guard let url = URLComponents(string: text), url.scheme == "postgres" || url.scheme == "postgresql" else {
            throw Invalid(description: "storage.postgres.url: a postgres:// URL")
        }
        guard let user = url.user, !user.isEmpty else { throw Invalid(description: "storage.postgres.url: names no user") }
        let database = url.path.split(separator: "/").first.map(String.init)
        let tls: PostgresClient.Configuration.TLS = switch url.queryItems?.first(where: { $0.name == "sslmode" })?.value {
        case "disable": .disable
        case "require", "verify-ca", "verify-full": .require(.makeClientConfiguration())
        default: .prefer(.makeClientConfiguration())
        }
        return PostgresClient.Configuration(
            host: url.host ?? "localhost", port: url.port ?? 5432, username: user.removingPercentEncoding ?? user,
            password: url.password?.removingPercentEncoding, database: database, tls: tls
        )
    }
}
