import Foundation
import SwitchboardJSON

extension LocalAppData {
    public func scan(in className: String, where whereDocument: JSONValue, scanKey: String?, cursor: String?, limit: Int) async throws -> (results: [JSONValue], cursor: String?) {
        try ClassNames.validate(className: className)
        if className == ConversationClass.name { throw ConversationClass.notScanned }
        let order = try Self.scanOrder(scanKey)
        let limit = limit <= 0 ? ObjectQuery.defaultLimit : min(limit, ObjectQuery.maxLimit)
        let filter = try await matcher(whereDocument)
        var position = try cursor.map { try ScanCursor(text: $0, order: order).position }
        var results: [JSONValue] = []
        var read = 0
        while read < Self.maxDocumentsRead {
            let page = try await store.documents(in: className, order: order, after: position, limit: limit)
            for document in page {
                read += 1
                position = .init(after: document, in: order)
                let json = document.json
                if filter.matches(json) { results.append(json) }
                if results.count == limit { return (results, position.map { ScanCursor(order: order, position: $0).text }) }
            }
            if page.count < limit { return (results, nil) }
        }
        // A sparse match: the caller goes on from where this stopped.
        return (results, position.map { ScanCursor(order: order, position: $0).text })
    }

    private static func scanOrder(_ scanKey: String?) throws(StorageError) -> DocumentOrder {
        guard let scanKey, !scanKey.isEmpty else { return DocumentOrder(.objectID) }
        let ascending = !scanKey.hasPrefix("-")
        guard let column = DocumentOrder.Column(rawValue: ascending ? scanKey : String(scanKey.dropFirst())) else {
            throw .unsupported("scan_key \(scanKey): scans go by objectId, createdAt or updatedAt")
        }
        return DocumentOrder(column, ascending: ascending)
    }
}

/// Where a scan stopped, as the opaque `cursor` a caller sends back.
struct ScanCursor {
    let order: DocumentOrder
    let position: DocumentOrder.Position

    init(order: DocumentOrder, position: DocumentOrder.Position) {
        self.order = order
        self.position = position
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
