import Foundation
import GRDB
import SwitchboardCore

extension SQLiteStore: PushDeviceStore {
    public func registerDevice(clientID: String, token: String, deviceID: String?, at time: Int64) async throws {
        try await writer.write { db in
            try db.executeCached(
                sql: """
                    INSERT INTO device (client_id, token, device_id, registered_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT DO UPDATE SET device_id = excluded.device_id, registered_at = excluded.registered_at
                    """,
                arguments: [clientID, token, deviceID, time]
            )
        }
    }

    public func pushDevices(of clientIDs: [String]) async throws -> [String: [PushDevice]] {
        guard !clientIDs.isEmpty else { return [:] }
        return try await read { db in
            let placeholders = Self.placeholders(clientIDs.count)
            // A device with an installation goes by the installation's type and vendor
            // (`PushDeviceColumns`).
            let vendor = PushDeviceColumns.vendor
            let vendorToken = PushDeviceColumns.vendorToken
            return try Row.fetchAll(
                db, cachedSQL: """
                    SELECT client_id, token, device_type, vendor, profile FROM (
                        SELECT d.client_id, coalesce(\(vendorToken), d.token) AS token, i.device_type, \(vendor) AS vendor,
                            i.device_profile AS profile, d.registered_at AS at
                        FROM device d LEFT JOIN installation i ON i.device_token = d.token OR i.installation_id = d.token
                        WHERE d.client_id IN \(placeholders)
                        UNION ALL
                        SELECT c.channel, coalesce(\(PushDeviceColumns.longConnectionToken), \(vendorToken), i.device_token, i.registration_id, i.installation_id), i.device_type, \(vendor),
                            i.device_profile, i.updated_at
                        FROM installation_channel c JOIN installation i USING (object_id) WHERE c.channel IN \(placeholders)
                    ) ORDER BY at
                    """,
                arguments: Self.padded(clientIDs) + Self.padded(clientIDs)
            ).reduce(into: [:]) { devices, row in
                let clientID: String = row["client_id"]
                let device = PushDevice(token: row["token"], deviceType: row["device_type"], vendor: row["vendor"], profile: row["profile"])
                if devices[clientID]?.contains(where: { $0.token == device.token }) != true { devices[clientID, default: []].append(device) }
            }
        }
    }

    public func saveInstallation(_ installation: Installation, at now: Int64) async throws -> (objectID: String, created: Bool) {
        return try await writer.write { db in
            let existing = try String.fetchOne(
                db, sql: "SELECT object_id FROM installation WHERE device_token = ? OR installation_id = ?",
                arguments: [installation.deviceToken, installation.installationID]
            )
            let objectID = existing ?? Identifiers.objectID()
            try db.execute(
                sql: """
                    INSERT INTO installation (object_id, device_type, device_token, installation_id, registration_id, vendor, device_profile, created_at, updated_at)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?8, ?7, ?7)
                    ON CONFLICT (object_id) DO UPDATE SET device_type = ?2, device_token = ?3, installation_id = ?4,
                        registration_id = coalesce(?5, registration_id), vendor = coalesce(?6, vendor),
                        device_profile = coalesce(?8, device_profile), updated_at = ?7
                    """,
                arguments: [
                    objectID, installation.deviceType.rawValue, installation.deviceToken, installation.installationID,
                    installation.registrationID, installation.vendor, now, installation.deviceProfile,
                ]
            )
            try Self.change(channels: .add(installation.channels), of: objectID, db)
            return (objectID, existing == nil)
        }
    }

    public func updateInstallation(objectID: String, _ change: InstallationChange, at now: Int64) async throws -> Bool {
        return try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE installation SET device_token = coalesce(?, device_token), registration_id = coalesce(?, registration_id),
                        vendor = coalesce(?, vendor), device_profile = coalesce(?, device_profile),
                        badge = coalesce(?, badge), updated_at = ? WHERE object_id = ?
                    """,
                arguments: [change.deviceToken, change.registrationID, change.vendor, change.deviceProfile, change.badge, now, objectID]
            )
            guard db.changesCount > 0 else { return false }
            if let channels = change.channels { try Self.change(channels: channels, of: objectID, db) }
            return true
        }
    }

    public func installation(objectID: String) async throws -> SavedInstallation? {
        try await read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM installation WHERE object_id = ?", arguments: [objectID]) else { return nil }
            let channels = try String.fetchAll(
                db, sql: "SELECT channel FROM installation_channel WHERE object_id = ? ORDER BY channel", arguments: [objectID]
            )
            return RowMapping.installation(row, channels: channels)
        }
    }

    public func installations(after objectID: String?, limit: Int) async throws -> [SavedInstallation] {
        let limit = min(max(limit, 0), Self.maxListLength)
        return try await read { db in
            let rows = try Row.fetchAll(
                db, cachedSQL: "SELECT * FROM installation WHERE object_id > ? ORDER BY object_id LIMIT ?", arguments: [objectID ?? "", limit]
            )
            guard !rows.isEmpty else { return [] }
            var channels: [String: [String]] = [:]
            for row in try Row.fetchAll(
                db, cachedSQL: "SELECT object_id, channel FROM installation_channel WHERE object_id IN \(Self.placeholders(rows.count)) ORDER BY channel",
                arguments: Self.padded(rows.map { $0["object_id"] as String })
            ) {
                channels[row["object_id"], default: []].append(row["channel"])
            }
            return rows.compactMap { RowMapping.installation($0, channels: channels[$0["object_id"]] ?? []) }
        }
    }

    public func deleteInstallation(objectID: String) async throws -> Bool {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM installation WHERE object_id = ?", arguments: [objectID])
            return db.changesCount > 0
        }
    }

    static func change(channels change: Installation.ChannelChange, of objectID: String, _ db: Database) throws {
        if case .set = change {
            try db.execute(sql: "DELETE FROM installation_channel WHERE object_id = ?", arguments: [objectID])
        }
        let (channels, sql) = switch change {
        case .set(let channels), .add(let channels):
            (channels, "INSERT OR IGNORE INTO installation_channel (channel, object_id) VALUES (?, ?)")
        case .remove(let channels):
            (channels, "DELETE FROM installation_channel WHERE channel = ? AND object_id = ?")
        }
        for channel in Set(channels) {
            try db.execute(sql: sql, arguments: [channel, objectID])
        }
    }

    public func countBadges(tokens: [String]) async throws -> [String: Int] {
        guard !tokens.isEmpty else { return [:] }
        return try await writer.write { db in
            try Set(tokens).reduce(into: [:]) { counts, token in
                let badges = try Int.fetchAll(db, sql: "UPDATE device SET badge = badge + 1 WHERE token = ? RETURNING badge", arguments: [token])
                    + Int.fetchAll(db, sql: "UPDATE installation SET badge = badge + 1 WHERE device_token = ? RETURNING badge", arguments: [token])
                counts[token] = badges.max() ?? 1
            }
        }
    }

    public func clearBadges(of clientID: String) async throws {
        try await writer.write { db in
            try db.executeCached(sql: "UPDATE device SET badge = 0 WHERE client_id = ? AND badge != 0", arguments: [clientID])
            try db.executeCached(
                sql: """
                    UPDATE installation SET badge = 0 WHERE badge != 0
                        AND (object_id IN (SELECT object_id FROM installation_channel WHERE channel = ?)
                            OR device_token IN (SELECT token FROM device WHERE client_id = ?))
                    """,
                arguments: [clientID, clientID]
            )
        }
    }

    public func removeDevice(token: String) async throws {
        try await writer.write { db in
            try db.executeCached(sql: "DELETE FROM device WHERE token = ?", arguments: [token])
            try db.executeCached(sql: "DELETE FROM installation WHERE device_token = ? OR registration_id = ?", arguments: [token, token])
        }
    }

    public func clientsWithDevices(after clientID: String, limit: Int) async throws -> [String] {
        try await read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT client_id FROM device WHERE client_id > ? ORDER BY client_id LIMIT ?", arguments: [clientID, limit])
        }
    }
}
