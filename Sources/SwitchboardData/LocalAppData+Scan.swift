import Foundation
import SwitchboardJSON

extension LocalAppData {
    public func scan(in className: String, where whereDocument: JSONValue, scanKey: String?, cursor: String?, limit: Int) async throws -> (results: [JSONValue], cursor: String?) {
        try ClassNames.validate(className: className)
        let whereDocument = try await resolvingSubqueries(whereDocument, depth: 0)
        if let imClass = imClasses[className] { return try await IMClasses.scan(imClass, where: whereDocument, scanKey: scanKey, cursor: cursor, limit: limit) }
        if IMClasses.names.contains(className) { throw IMClasses.unavailable(className) }
        let order = try ScanCursor.order(scanKey)
        let limit = ScanWalk.limit(limit)
        let filter = try DocumentFilter.storage(whereDocument, maxTerms: Self.maxTerms)
        var start = try cursor.map { try ScanCursor(text: $0, order: order).position }
        if order == DocumentOrder(.objectID), let floor = ScanWalk.objectIDFloor(whereDocument), floor > start?.objectID ?? "" {
            start = .init(time: 0, objectID: floor)
        }
        let page = try await ScanWalk.run(from: start, limit: limit, pageSize: limit, filter: filter) { position in
            let documents = try await store.documents(in: className, order: order, after: position, limit: limit)
            return .init(
                objects: documents.map { ($0.json, .init(after: $0, in: order)) },
                next: documents.count < limit ? nil : documents.last.map { .init(after: $0, in: order) }
            )
        }
        return (page.results, page.next.map { ScanCursor(order: order, position: $0).text })
    }
}

/// Where a scan stopped, as the opaque `cursor` a caller sends back. It does not expire.
struct ScanCursor {
    let order: DocumentOrder
    let position: DocumentOrder.Position

    init(order: DocumentOrder, position: DocumentOrder.Position) {
        self.order = order
        self.position = position
    }

    /// The order `scan_key` names: `objectId` (the default), `createdAt` or `updatedAt`, `-`
    /// for descending.
    static func order(_ scanKey: String?) throws(StorageError) -> DocumentOrder {
        guard let scanKey, !scanKey.isEmpty else { return DocumentOrder(.objectID) }
        let ascending = !scanKey.hasPrefix("-")
        guard let column = DocumentOrder.Column(rawValue: ascending ? scanKey : String(scanKey.dropFirst())) else {
            throw .unsupported("scan_key \(scanKey): scans go by objectId, createdAt or updatedAt")
        }
        return DocumentOrder(column, ascending: ascending)
    }

    var text: String {
        Data("\(order.column.rawValue) \(order.ascending) \(position.time) \(position.objectID)".utf8).base64EncodedString()
    }

    init(text: String, order: DocumentOrder) throws(StorageError) {
        let parts = Data(base64Encoded: text).flatMap { String(data: $0, encoding: .utf8) }?.split(separator: " ").map(String.init) ?? []
        guard parts.count == 4, parts[0] == order.column.rawValue, parts[1] == String(order.ascending), let time = Int64(parts[2]) else {
            throw .invalidQuery("cursor is not one this scan gave (scan_key must stay the same)")
        }
        self.order = order
        position = .init(time: time, objectID: parts[3])
    }
}
