import Foundation
import SwitchboardJSON

extension LocalAppData {
    /// Documents read for one query, at most: past this a query is refused (124) rather than
    /// holding the database; an equality on any field reads only its matches.
    static let maxDocumentsRead = 100_000
    /// `where` values, at most, once subqueries have become lists.
    static let maxTerms = 20_000
    static let pageSize = 500

    public func find(_ query: ObjectQuery) async throws -> ObjectQuery.Result {
        try ClassNames.validate(className: query.className)
        let whereDocument = try await resolvingSubqueries(query.whereDocument, depth: 0)
        var result: ObjectQuery.Result
        if let imClass = imClasses[query.className] {
            var resolved = query
            resolved.whereDocument = whereDocument
            result = try await IMClasses.find(resolved, in: imClass)
        } else if IMClasses.names.contains(query.className) {
            throw IMClasses.unavailable(query.className)
        } else {
            let ordering = DocumentOrdering(query.order ?? "createdAt")
            let documents = try await matching(
                query.className, whereDocument: whereDocument, ordering: ordering, stopAfter: query.count ? nil : query.skip + query.limit
            )
            result = .init(results: documents.dropFirst(query.skip).prefix(query.limit).map(\.json), count: query.count ? documents.count : nil)
        }
        for path in query.include.sorted() {
            result.results = try await expand(result.results, path: path.split(separator: ".").map(String.init)[...])
        }
        let selection = KeySelection(query.keys)
        if !selection.isEmpty { result.results = result.results.map(selection.apply) }
        return result
    }

    /// A `where` as a filter, with its subqueries answered first.
    func matcher(_ whereDocument: JSONValue) async throws -> DocumentFilter {
        try DocumentFilter.storage(try await resolvingSubqueries(whereDocument, depth: 0), maxTerms: Self.maxTerms)
    }

    /// The documents of a class that match, in `ordering`; with `stopAfter`, reading may
    /// stop once that many are found in order.
    func matching(_ className: String, whereDocument: JSONValue, ordering: DocumentOrdering, stopAfter: Int?) async throws -> [Match] {
        let filter = try DocumentFilter.storage(whereDocument, maxTerms: Self.maxTerms)
        var kept: [Match] = []
        var read = 0
        func consider(_ page: [StoredDocument]) throws(StorageError) {
            read += page.count
            guard read <= Self.maxDocumentsRead else {
                throw .tooExpensive("The query reads more than \(Self.maxDocumentsRead) objects of \(className): pin a field to a value (its index answers) or narrow it by createdAt.")
            }
            for document in page {
                let json = document.json
                if filter.matches(json) { kept.append(Match(document: document, json: json)) }
            }
        }
        switch CandidatePlan(whereDocument) {
        case .ids(let ids):
            try consider(try await store.documents(in: className, ids: ids))
        case .lookup(let field, let keys):
            var afterID: String?
            while true {
                let page = try await store.documents(in: className, field: field, indexKeys: keys, afterID: afterID, limit: Self.pageSize)
                try consider(page)
                guard page.count == Self.pageSize, let last = page.last else { break }
                afterID = last.objectID
            }
        case .scan:
            let streamed = Self.storeOrder(for: ordering)
            let order = streamed ?? DocumentOrder(.createdAt)
            // Only the times the `where` allows are read (`createdAt` from a date on).
            let bounds = TimeBounds(whereDocument, column: order.column)
            var position = bounds.start(in: order)
            while true {
                let page = try await store.documents(in: className, order: order, after: position, limit: Self.pageSize)
                try consider(page)
                if streamed != nil, let stopAfter, kept.count >= stopAfter { return kept }
                guard page.count == Self.pageSize, let last = page.last, !bounds.isPast(last, in: order) else { break }
                position = .init(after: last, in: order)
            }
            if streamed != nil { return kept }
        }
        // Ties go by object id in the direction of the last key, as the store pages a column:
        // the same order whichever way the candidates were read.
        let idsAscending = ordering.keys.last?.ascending ?? true
        return kept.sorted { a, b in
            if ordering.inOrder(a.json, b.json) { return true }
            if ordering.inOrder(b.json, a.json) { return false }
            return idsAscending ? a.document.objectID < b.document.objectID : a.document.objectID > b.document.objectID
        }
    }

    /// A document that matched, with the JSON it was matched as.
    struct Match {
        let document: StoredDocument
        let json: JSONValue
    }

    /// The store's own order when `ordering` is one column it keeps.
    static func storeOrder(for ordering: DocumentOrdering) -> DocumentOrder? {
        guard ordering.keys.count == 1, let key = ordering.keys.first, let column = DocumentOrder.Column(rawValue: key.name) else { return nil }
        return DocumentOrder(column, ascending: key.ascending)
    }
}

/// How a query reads its candidates: by id, through the index of one field it pins, or
/// through the whole class.
enum CandidatePlan: Equatable {
    case ids([String])
    case lookup(field: String, keys: [String])
    case scan

    init(_ whereDocument: JSONValue) {
        var conditions = whereDocument.objectValue ?? [:]
        // `$and` parts' conditions hold as well as the top level's.
        for part in whereDocument["$and"]?.arrayValue ?? [] {
            for (key, value) in part.objectValue ?? [:] where conditions[key] == nil { conditions[key] = value }
        }
        if let condition = conditions["objectId"], let keys = IndexEntries.lookupKeys(for: condition) {
            let ids = keys.compactMap { key in (try? JSONValue(parsing: key))?.stringValue }
            if ids.count == keys.count {
                self = .ids(ids)
                return
            }
        }
        let pinned = conditions.keys.sorted().compactMap { field -> (String, [String])? in
            guard !field.hasPrefix("$"), !field.contains("."), !StoredDocument.builtInKeys.contains(field),
                  let keys = conditions[field].flatMap(IndexEntries.lookupKeys(for:)) else { return nil }
            return (field, keys)
        }
        if let (field, keys) = pinned.min(by: { $0.1.count < $1.1.count }) {
            self = .lookup(field: field, keys: keys + [IndexEntries.overflow])
        } else {
            self = .scan
        }
    }
}
