import Foundation
import SwitchboardJSON

/// The app's LeanStorage kept in Switchboard's own database (`DocumentStore`), with the
/// IM classes (`_Conversation`, `_ConversationMemberInfo`, `_Installation`) answered from
/// the IM store, read-only; without one they are not available. Every caller has master
/// rights: no ACLs.
public struct LocalAppData: AppData {
    let store: any DocumentStore
    let imClasses: IMClasses
    let clock: any WallClock

    public init(store: any DocumentStore, imClasses: IMClasses = IMClasses(), clock: any WallClock = SystemWallClock()) {
        self.store = store
        self.imClasses = imClasses
        self.clock = clock
    }

    /// The classes with objects, and the IM classes an IM store answers.
    public func classNames() async throws -> [String] {
        Set(try await store.classNames()).union(IMClasses.names.filter { imClasses[$0] != nil }).sorted()
    }

    public func create(in className: String, body: [String: JSONValue], fetchWhenSave: Bool) async throws -> JSONValue {
        try IMClasses.checkWritable(className)
        let changes = try FieldChanges(body, creating: true)
        var fields: [String: JSONValue] = [:]
        try changes.apply(to: &fields)
        let time = clock.now()
        let document = StoredDocument(className: className, objectID: ObjectIDs.make(at: time), createdAt: time, updatedAt: time, fields: fields)
        try await store.insert([document])
        if fetchWhenSave { return document.json }
        return ["objectId": .string(document.objectID), "createdAt": .string(ISODate.string(milliseconds: time))]
    }

    public func object(in className: String, id: String, include: [String], keys: [String]) async throws -> JSONValue? {
        try ClassNames.validate(className: className)
        try ClassNames.validate(objectID: id)
        let query = ObjectQuery(className: className, whereDocument: ["objectId": .string(id)], limit: 1, keys: keys, include: include)
        return try await find(query).results.first
    }

    public func update(in className: String, id: String, body: [String: JSONValue], condition: JSONValue?, fetchWhenSave: Bool) async throws -> JSONValue {
        try IMClasses.checkWritable(className)
        try ClassNames.validate(objectID: id)
        let changes = try FieldChanges(body, creating: false)
        let filter = try await conditionFilter(condition)
        let time = clock.now()
        let updated = try await store.update(in: className, id: id) { document in
            if let filter, !filter.matches(document.json) { throw StorageError.noEffect }
            var changed = document
            try changes.apply(to: &changed.fields)
            changed.updatedAt = max(time, document.updatedAt)
            return changed
        }
        guard let updated else { throw StorageError.objectNotFound(className, id: id) }
        var answer: [String: JSONValue] = ["objectId": .string(id), "updatedAt": .string(ISODate.string(milliseconds: updated.updatedAt))]
        if fetchWhenSave {
            for key in changes.changedKeys { answer[key] = updated.fields[key] }
        }
        return .object(answer)
    }

    public func delete(in className: String, id: String, condition: JSONValue?) async throws {
        try IMClasses.checkWritable(className)
        try ClassNames.validate(objectID: id)
        let filter = try await conditionFilter(condition)
        _ = try await store.delete(in: className, id: id) { document in
            if let filter, !filter.matches(document.json) { throw StorageError.noEffect }
        }
    }

    private func conditionFilter(_ condition: JSONValue?) async throws -> DocumentFilter? {
        guard let condition else { return nil }
        return try await matcher(condition)
    }
}
