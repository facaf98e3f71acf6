import SwitchboardJSON

/// An `_Installation` row (a device for push) as LeanCloud's export gives it.
public enum InstallationRow {
    public static func installation(_ row: JSONValue) throws(ImportRowError) -> SavedInstallation {
        let row = try ExportRow(row)
        let typeName = try row.string("deviceType")
        guard let deviceType = Installation.DeviceType(rawValue: typeName) else {
            throw ImportRowError("unknown deviceType \(typeName): pushes go to ios and android devices")
        }
        let installation = Installation(
            deviceType: deviceType,
            deviceToken: try row.optionalString("deviceToken").flatMap { $0.isEmpty ? nil : $0 },
            installationID: try row.optionalString("installationId").flatMap { $0.isEmpty ? nil : $0 },
            registrationID: try row.optionalString("registrationId").flatMap { $0.isEmpty ? nil : $0 },
            vendor: try row.optionalString("vendor"),
            deviceProfile: try row.optionalString("deviceProfile"),
            channels: try row.strings("channels")
        )
        guard installation.deviceToken != nil || installation.installationID != nil || installation.registrationID != nil else {
            throw ImportRowError("no deviceToken, installationId or registrationId: no push could reach it")
        }
        let badge = try row.optionalInt("badge") ?? 0
        guard let narrowed = Int(exactly: badge), narrowed >= 0 else { throw ImportRowError("badge must be a count") }
        let createdAt = try row.date("createdAt")
        return SavedInstallation(
            objectID: try row.string("objectId"), installation: installation, badge: narrowed,
            createdAt: createdAt, updatedAt: try row.optionalDate("updatedAt") ?? createdAt
        )
    }
}
