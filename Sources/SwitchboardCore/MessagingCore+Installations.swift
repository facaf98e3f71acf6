extension MessagingCore {
    /// Saves a device for push, as `POST /1.1/installations` does.
    public func saveInstallation(_ installation: Installation) async throws -> (objectID: String, created: Bool, at: Int64) {
        let now = context.clock.now()
        let saved = try await context.store.saveInstallation(installation, at: now)
        return (saved.objectID, saved.created, now)
    }

    /// Changes a saved device, as `PUT /1.1/installations/<id>` does; nil when there is none.
    public func updateInstallation(objectID: String, _ change: InstallationChange) async throws -> Int64? {
        let now = context.clock.now()
        return try await context.store.updateInstallation(objectID: objectID, change, at: now) ? now : nil
    }

    /// A saved device, as `GET /1.1/installations/<id>` shows it; nil when there is none.
    public func installation(objectID: String) async throws -> SavedInstallation? {
        try await context.store.installation(objectID: objectID)
    }

    /// Forgets a saved device, as `DELETE /1.1/installations/<id>` does; false when there was none.
    public func deleteInstallation(objectID: String) async throws -> Bool {
        try await context.store.deleteInstallation(objectID: objectID)
    }
}
