/// Where app classes' objects are kept: SQLite or PostgreSQL (`SwitchboardStore`).
/// `LocalAppData` runs LeanStorage's queries and operations over it; a store only keeps
/// documents, pages through them, and keeps `IndexEntries` so that an equality finds its
/// documents without reading the class.
public protocol DocumentStore: Sendable {
    /// Stores new documents with their index entries; an id already used in its class
    /// throws `StorageError.duplicateID` and stores none of them.
    func insert(_ documents: [StoredDocument]) async throws

    /// An import's batch: stores the documents whose ids their class does not have yet and
    /// replaces those stored in an older version (a smaller `updatedAt`), with their index
    /// entries; a document stored in the same or a newer version stays as it is, so an
    /// import run twice, or over overlapping exports, stores nothing twice. Of one id given
    /// twice, the newer is kept (the first of two alike).
    func importDocuments(_ documents: [StoredDocument]) async throws -> ImportOutcome

    /// The documents of a class with one of `ids`, in no particular order.
    func documents(in className: String, ids: [String]) async throws -> [StoredDocument]

    /// Documents of a class with an index entry for `field` among `keys` (see
    /// `IndexEntries`), in object id order from just past `afterID`, at most `limit`.
    func documents(in className: String, field: String, indexKeys keys: [String], afterID: String?, limit: Int) async throws -> [StoredDocument]

    /// A page of a class in `order`, from just past `position`, at most `limit`.
    func documents(in className: String, order: DocumentOrder, after position: DocumentOrder.Position?, limit: Int) async throws -> [StoredDocument]

    /// Replaces a document with what `change` makes of it, its index entries with it, in
    /// one transaction that no other change of it interleaves with (two increments both
    /// count, on one node or several). Nil when there is no such document; what `change`
    /// throws leaves it as it was.
    func update(in className: String, id: String, _ change: @escaping @Sendable (StoredDocument) throws -> StoredDocument) async throws -> StoredDocument?

    /// Deletes a document, with its index entries, if `check` does not throw for it (in the
    /// same transaction). False when there is no such document.
    func delete(in className: String, id: String, check: @escaping @Sendable (StoredDocument) throws -> Void) async throws -> Bool

    /// The classes that have a document, in name order.
    func classNames() async throws -> [String]
}
