import SwitchboardData
import Synchronization

/// A `DocumentStore` that counts the pages of a class read in order (what a query no index
/// answers does), passing every call on to the store it wraps.
final class ClassReadCounter: DocumentStore {
    let store: any DocumentStore
    private let pages = Atomic<Int>(0)

    init(_ store: any DocumentStore) {
        self.store = store
    }

    /// Pages read in order so far.
    var classPagesRead: Int { pages.load(ordering: .relaxed) }

    func insert(_ documents: [StoredDocument]) async throws {
        try await store.insert(documents)
    }

    func importDocuments(_ documents: [StoredDocument]) async throws -> ImportOutcome {
        try await store.importDocuments(documents)
    }

    func documents(in className: String, ids: [String]) async throws -> [StoredDocument] {
        try await store.documents(in: className, ids: ids)
    }

    func documents(in className: String, field: String, indexKeys keys: [String], afterID: String?, limit: Int) async throws -> [StoredDocument] {
        try await store.documents(in: className, field: field, indexKeys: keys, afterID: afterID, limit: limit)
    }

    func documents(in className: String, order: DocumentOrder, after position: DocumentOrder.Position?, limit: Int) async throws -> [StoredDocument] {
        pages.add(1, ordering: .relaxed)
        return try await store.documents(in: className, order: order, after: position, limit: limit)
    }

    func update(in className: String, id: String, _ change: @escaping @Sendable (StoredDocument) throws -> StoredDocument) async throws -> StoredDocument? {
        try await store.update(in: className, id: id, change)
    }

    func classNames() async throws -> [String] {
        try await store.classNames()
    }

    func delete(in className: String, id: String, check: @escaping @Sendable (StoredDocument) throws -> Void) async throws -> Bool {
        try await store.delete(in: className, id: id, check: check)
    }
}
