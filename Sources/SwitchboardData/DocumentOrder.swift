/// The orders a `DocumentStore` pages a class in: by a column it keeps, each with the
/// object id to break ties.
public struct DocumentOrder: Sendable, Equatable {
    public enum Column: String, Sendable {
        case objectID = "objectId"
        case createdAt
        case updatedAt
    }

    public let column: Column
    public let ascending: Bool

    public init(_ column: Column, ascending: Bool = true) {
        self.column = column
        self.ascending = ascending
    }

    /// Where a page ended: the last document's column value (milliseconds, 0 for
    /// `objectId`) and its id. The next page starts just past it.
    public struct Position: Sendable, Equatable {
        public let time: Int64
        public let objectID: String

        public init(time: Int64, objectID: String) {
            self.time = time
            self.objectID = objectID
        }

        public init(after document: StoredDocument, in order: DocumentOrder) {
            switch order.column {
            case .objectID: self.init(time: 0, objectID: document.objectID)
            case .createdAt: self.init(time: document.createdAt, objectID: document.objectID)
            case .updatedAt: self.init(time: document.updatedAt, objectID: document.objectID)
            }
        }
    }
}
