import Foundation
import PostgresNIO
import SwitchboardCore

extension PostgresStore: PushDeviceStore {
    public func registerDevice(clientID: String, token: String, deviceID: String?, at time: Int64) async throws {
        try await run(
            """
            INSERT INTO device (client_id, token, device_id, registered_at) VALUES (\(clientID), \(token), \(deviceID), \(time))
            ON CONFLICT (client_id, token) DO UPDATE SET device_id = excluded.device_id, registered_at = excluded.registered_at
            """
        )
    }

    public func pushDevices(of clientIDs: [String]) async throws -> [String: [PushDevice]] {
        guard !clientIDs.isEmpty else { return [:] }
        // As `SQLiteStore`'s: an installation's type and vendor decide (`PushDeviceColumns`).
        return try await all(
            """
            SELECT client_id, token, device_type, vendor, profile FROM (
                SELECT d.client_id, COALESCE(\(unescaped: PushDeviceColumns.vendorToken), d.token) AS token, i.device_type,
                    \(unescaped: PushDeviceColumns.vendor) AS vendor, i.device_profile AS profile, d.registered_at AS at
                FROM device d LEFT JOIN installation i ON i.device_token = d.token OR i.installation_id = d.token
                WHERE d.client_id = ANY(\(clientIDs))
                UNION ALL
                SELECT c.channel, COALESCE(\(unescaped: PushDeviceColumns.longConnectionToken), \(unescaped: PushDeviceColumns.vendorToken), i.device_token, i.registration_id, i.installation_id),
                    i.device_type, \(unescaped: PushDeviceColumns.vendor), i.device_profile, i.updated_at
                FROM installation_channel c JOIN installation i USING (object_id) WHERE c.channel = ANY(\(clientIDs))
            ) AS devices ORDER BY at
            """
        ).reduce(into: [:]) { devices, row in
            let clientID = row.string("client_id") ?? ""
            let device = PushDevice(
                token: row.string("token") ?? "", deviceType: row.string("device_type"), vendor: row.string("vendor"), profile: row.string("profile")
            )
            if devices[clientID]?.contains(where: { $0.token == device.token }) != true { devices[clientID, default: []].append(device) }
        }
    }

    public func saveInstallation(_ installation: Installation, at now: Int64) async throws -> (objectID: String, created: Bool) {
        return try await transaction { connection in
            let existing = try await connection.all(
                """
                SELECT object_id FROM installation WHERE device_token = \(installation.deviceToken)
                    OR installation_id = \(installation.installationID) FOR UPDATE
                """,
                logger
            ).first?.string("object_id")
            let objectID = existing ?? Identifiers.objectID()
            try await connection.query(
                """
                INSERT INTO installation (object_id, device_type, device_token, installation_id, registration_id, vendor, device_profile, created_at, updated_at)
                VALUES (\(objectID), \(installation.deviceType.rawValue), \(installation.deviceToken), \(installation.installationID),
                    \(installation.registrationID), \(installation.vendor), \(installation.deviceProfile), \(now), \(now))
                ON CONFLICT (object_id) DO UPDATE SET device_type = excluded.device_type, device_token = excluded.device_token,
                    installation_id = excluded.installation_id, registration_id = COALESCE(excluded.registration_id, installation.registration_id),
                    vendor = COALESCE(excluded.vendor, installation.vendor),
                    device_profile = COALESCE(excluded.device_profile, installation.device_profile), updated_at = excluded.updated_at
                """,
                logger: logger
            )
            try await Self.change(channels: .add(installation.channels), of: objectID, connection, logger)
            return (objectID, existing == nil)
        }
    }

    public func updateInstallation(objectID: String, _ change: InstallationChange, at now: Int64) async throws -> Bool {
        return try await transaction { connection in
            let updated = try await connection.all(
                """
                UPDATE installation SET device_token = COALESCE(\(change.deviceToken), device_token),
                    registration_id = COALESCE(\(change.registrationID), registration_id), vendor = COALESCE(\(change.vendor), vendor),
                    device_profile = COALESCE(\(change.deviceProfile), device_profile), badge = COALESCE(\(change.badge), badge),
                    updated_at = \(now)
                WHERE object_id = \(objectID) RETURNING object_id
                """,
                logger
            )
            guard !updated.isEmpty else { return false }
            if let channels = change.channels { try await Self.change(channels: channels, of: objectID, connection, logger) }
            return true
        }
    }

    static func change(channels change: Installation.ChannelChange, of objectID: String, _ connection: PostgresConnection, _ logger: Logger) async throws {
        switch change {
        case .set(let channels):
            try await connection.query("DELETE FROM installation_channel WHERE object_id = \(objectID)", logger: logger)
            try await add(channels, to: objectID, connection, logger)
        case .add(let channels):
            try await add(channels, to: objectID, connection, logger)
        case .remove(let channels):
            try await connection.query(
                "DELETE FROM installation_channel WHERE object_id = \(objectID) AND channel = ANY(\(channels))", logger: logger
            )
        }
    }

    private static func add(_ channels: [String], to objectID: String, _ connection: PostgresConnection, _ logger: Logger) async throws {
        guard !channels.isEmpty else { return }
        try await connection.query(
            """
            INSERT INTO installation_channel (channel, object_id) SELECT DISTINCT channel, \(objectID)
            FROM unnest(\(channels)::text[]) AS channel ON CONFLICT DO NOTHING
            """,
            logger: logger
        )
    }

    public func installation(objectID: String) async throws -> SavedInstallation? {
        guard let row = try await all("SELECT * FROM installation WHERE object_id = \(objectID)").first else { return nil }
        let channels = try await all("SELECT channel FROM installation_channel WHERE object_id = \(objectID) ORDER BY channel").compactMap { $0.string("channel") }
        return RowMapping.installation(row, channels: channels)
    }

    /// Object ids compare byte by byte, as `conversations(after:limit:)`'s do.
    public func installations(after objectID: String?, limit: Int) async throws -> [SavedInstallation] {
        let rows = try await all(
            #"SELECT * FROM installation WHERE object_id COLLATE "C" > \#(objectID ?? "") ORDER BY object_id COLLATE "C" LIMIT \#(limit)"#
        )
        guard !rows.isEmpty else { return [] }
        let ids = rows.compactMap { $0.string("object_id") }
        var channels: [String: [String]] = [:]
        for row in try await all("SELECT object_id, channel FROM installation_channel WHERE object_id = ANY(\(ids)) ORDER BY channel") {
            channels[row.string("object_id") ?? "", default: []].append(row.string("channel") ?? "")
        }
        return rows.compactMap { RowMapping.installation($0, channels: channels[$0.string("object_id") ?? ""] ?? []) }
    }

    public func deleteInstallation(objectID: String) async throws -> Bool {
        try await !all("DELETE FROM installation WHERE object_id = \(objectID) RETURNING object_id").isEmpty
    }

    public func countBadges(tokens: [String]) async throws -> [String: Int] {
        guard !tokens.isEmpty else { return [:] }
        let rows = try await all(
            """
            WITH devices AS (UPDATE device SET badge = badge + 1 WHERE token = ANY(\(tokens)) RETURNING token, badge),
                installations AS (UPDATE installation SET badge = badge + 1 WHERE device_token = ANY(\(tokens)) RETURNING device_token AS token, badge)
            SELECT token, MAX(badge) AS badge FROM (SELECT * FROM devices UNION ALL SELECT * FROM installations) AS counted GROUP BY token
            """
        )
        var counts = Dictionary(uniqueKeysWithValues: Set(tokens).map { ($0, 1) })
        for row in rows {
            if let token = row.string("token") { counts[token] = Int(row.int64("badge") ?? 1) }
        }
        return counts
    }

    public func clearBadges(of clientID: String) async throws {
        try await transaction { connection in
            try await connection.query("UPDATE device SET badge = 0 WHERE client_id = \(clientID) AND badge != 0", logger: logger)
            try await connection.query(
                """
                UPDATE installation SET badge = 0 WHERE badge != 0
                    AND (object_id IN (SELECT object_id FROM installation_channel WHERE channel = \(clientID))
                        OR device_token IN (SELECT token FROM device WHERE client_id = \(clientID)))
                """,
                logger: logger
            )
        }
    }

    public func removeDevice(token: String) async throws {
        try await transaction { connection in
            try await connection.query("DELETE FROM device WHERE token = \(token)", logger: logger)
            try await connection.query("DELETE FROM installation WHERE device_token = \(token) OR registration_id = \(token)", logger: logger)
        }
    }

    public func clientsWithDevices(after clientID: String, limit: Int) async throws -> [String] {
        try await all(
            "SELECT DISTINCT client_id FROM device WHERE client_id > \(clientID) ORDER BY client_id LIMIT \(limit)"
        ).compactMap { $0.string("client_id") }
    }
}
