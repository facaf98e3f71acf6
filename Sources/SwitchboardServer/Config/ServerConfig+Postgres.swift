import SwitchboardStore

extension ServerConfig {
    /// `storage.postgres`: the database every node of the app shares, instead of SQLite.
    static var postgres: Setting {
        let defaults = ServerConfig()
        return Setting(section: "storage.postgres", type: "section", default: "none (SQLite)",
                       "keep the data in PostgreSQL instead; every node of an app names the same database (see Running several nodes)", fields: [
            .field("url", String.self, "required",
                   "`postgres://user:password@host:5432/db`, `?sslmode=disable` or `require`; the schema is created and migrated at start"),
            .field("maxConnections", "this node's connections to the database at most (besides one that listens to the other nodes and up to 4 that hold conversation locks)",
                   defaults, \.postgresMaxConnections),
            .field("heartbeatSeconds", "how often this node tells the others it is alive; one silent for three times this is gone, with its sessions",
                   defaults, \.nodeHeartbeatSeconds),
        ], sets: [\.postgresURL, \.postgresMaxConnections, \.nodeHeartbeatSeconds]) { postgres, config in
            guard let url = try postgres.read("url", as: String.self) else { throw ConfigError("storage.postgres.url: a postgres:// URL") }
            do { try PostgresStore.checkURL(url) } catch { throw ConfigError("\(error)") }
            config.postgresURL = url
            config.postgresMaxConnections = try postgres.read("maxConnections") ?? config.postgresMaxConnections
            guard config.postgresMaxConnections >= 1 else { throw ConfigError("storage.postgres.maxConnections: at least 1") }
            config.nodeHeartbeatSeconds = try postgres.read("heartbeatSeconds") ?? config.nodeHeartbeatSeconds
            guard config.nodeHeartbeatSeconds >= 1 else { throw ConfigError("storage.postgres.heartbeatSeconds: at least 1") }
        }
    }
}
