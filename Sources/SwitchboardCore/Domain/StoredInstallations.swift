import SwitchboardData
import SwitchboardJSON

/// `_Installation` as LeanStorage showed it, read from the IM store's saved devices
/// (`/1.1/installations`): `{objectId, deviceType, deviceToken, installationId,
/// registrationId, vendor, channels, badge, createdAt, updatedAt}`, the fields a device does
/// not have left out; read-only here, since devices are saved through `/1.1/installations`.
public struct StoredInstallations: IMClass {
    let store: any PushDeviceStore

    public init(store: any PushDeviceStore) {
        self.store = store
    }

    public var name: String { IMClasses.installation }

    /// One device by `objectId` is read alone; any other query reads them all (at most
    /// `IMClasses.maxRowsRead`), oldest first unless `order` says otherwise.
    public func objects(where whereDocument: JSONValue, order: String?, skip: Int, limit: Int) async throws -> [JSONValue] {
        var rows: [JSONValue] = []
        if let id = whereDocument["objectId"]?.stringValue {
            rows = try await store.installation(objectID: id).map { [$0.storageObject] } ?? []
        } else {
            var after: String?
            repeat {
                let page = try await page(after: after, limit: ObjectQuery.maxLimit)
                rows += page.objects
                after = page.next
                guard rows.count <= IMClasses.maxRowsRead else {
                    throw StorageError.tooExpensive("A query of \(name) reads more than \(IMClasses.maxRowsRead) devices: walk them with /1.1/scan/classes/\(name).")
                }
            } while after != nil
        }
        return try IMClasses.page(of: rows, where: whereDocument, order: order ?? "createdAt", skip: skip, limit: limit)
    }

    public func page(after objectID: String?, limit: Int) async throws -> IMClassPage {
        let read = try await store.installations(after: objectID, limit: limit)
        return IMClassPage(objects: read.map(\.storageObject), next: read.count < limit ? nil : read.last?.objectID)
    }
}
