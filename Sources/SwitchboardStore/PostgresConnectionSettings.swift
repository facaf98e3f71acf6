import Foundation
import NIOSSL
import PostgresNIO

/// A PostgreSQL URL (`postgres://user:password@host:port/database?sslmode=…`) as the
/// client's configuration. `sslmode` `disable` turns TLS off, `require` insists on it;
/// without it TLS is used when the server offers it.
enum PostgresConnectionSettings {
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    private enum TLSMode {
        case disable, prefer, require
    }

    private struct Parsed {
        var host: String
        var port: Int
        var user: String
        var password: String?
        var database: String?
        var tls: TLSMode
    }

    static func configuration(url text: String) throws -> PostgresClient.Configuration {
        let url = try parse(text)
        let tls: PostgresClient.Configuration.TLS = switch url.tls {
        case .disable: .disable
        case .require: .require(.makeClientConfiguration())
        case .prefer: .prefer(.makeClientConfiguration())
        }
        return PostgresClient.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database, tls: tls
        )
    }

    /// The same, for a connection of its own (one that listens for notifications).
    static func connectionConfiguration(url text: String) throws -> PostgresConnection.Configuration {
        let url = try parse(text)
        let tls: PostgresConnection.Configuration.TLS = switch url.tls {
        case .disable: .disable
        case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        return PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database, tls: tls
        )
    }

    /// Where `text` points, for the log: `user@host:port/database`, without the password.
    static func location(url text: String) throws -> String {
        let url = try parse(text)
        return "\(url.user)@\(url.host):\(url.port)/\(url.database ?? url.user)"
    }

    private static func parse(_ text: String) throws -> Parsed {
        guard let url = URLComponents(string: text), url.scheme == "postgres" || url.scheme == "postgresql" else {
            throw Invalid(description: "storage.postgres.url: a postgres:// URL")
        }
        guard let user = url.user, !user.isEmpty else { throw Invalid(description: "storage.postgres.url: names no user") }
        let tls: TLSMode = switch url.queryItems?.first(where: { $0.name == "sslmode" })?.value {
        case "disable": .disable
        case "require", "verify-ca", "verify-full": .require
        default: .prefer
        }
        return Parsed(
            host: url.host ?? "localhost", port: url.port ?? 5432, user: user.removingPercentEncoding ?? user,
            password: url.password?.removingPercentEncoding, database: url.path.split(separator: "/").first.map(String.init), tls: tls
        )
    }
}
