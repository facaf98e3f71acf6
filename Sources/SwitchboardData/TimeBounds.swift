import SwitchboardJSON

/// The times a `where` holds `createdAt` or `updatedAt` between (`$gt`, `$gte`, `$lt`,
/// `$lte`, `$eq` or an equality, at the top level or in `$and`), so that a read of the
/// class in that column's order starts at the first time that can match and stops past
/// the last. A bound counts only when it compares as its time does: a Date, or an ISO
/// string in LeanCloud's own form.
struct TimeBounds {
    /// Milliseconds; nil when the `where` sets no such bound.
    private(set) var earliest: Int64?
    private(set) var latest: Int64?

    init(_ whereDocument: JSONValue, column: DocumentOrder.Column) {
        guard column != .objectID else { return }
        let parts = [whereDocument] + (whereDocument["$and"]?.arrayValue ?? [])
        for condition in parts.compactMap({ $0[column.rawValue] }) {
            guard let operators = condition.objectValue, operators.keys.contains(where: { $0.hasPrefix("$") }) else {
                if let time = Self.time(condition) { bound(from: time, to: time) }
                continue
            }
            for (name, operand) in operators {
                guard let time = Self.time(operand) else { continue }
                switch name {
                case "$gt", "$gte": bound(from: time, to: nil)
                case "$lt", "$lte": bound(from: nil, to: time)
                case "$eq": bound(from: time, to: time)
                default: break
                }
            }
        }
    }

    private mutating func bound(from start: Int64?, to end: Int64?) {
        if let start { earliest = max(earliest ?? start, start) }
        if let end { latest = min(latest ?? end, end) }
    }

    /// Where a read in `order` starts: just before the first time that can match.
    func start(in order: DocumentOrder) -> DocumentOrder.Position? {
        // Object ids are never empty: ("", t) comes before every object of time t.
        if order.ascending { return earliest.map { DocumentOrder.Position(time: $0, objectID: "") } }
        return latest.map { DocumentOrder.Position(time: $0 + 1, objectID: "") }
    }

    /// Whether a read in `order` that has reached `document` is past every time that can match.
    func isPast(_ document: StoredDocument, in order: DocumentOrder) -> Bool {
        let time = DocumentOrder.Position(after: document, in: order).time
        if order.ascending { return latest.map { time > $0 } ?? false }
        return earliest.map { time < $0 } ?? false
    }

    /// A value's time, when the filter compares it as that time: its comparable form is
    /// LeanCloud's ISO form, as `createdAt` and `updatedAt` read.
    private static func time(_ value: JSONValue) -> Int64? {
        guard let text = DocumentFilter.comparable(value).stringValue, let time = ISODate.milliseconds(from: .string(text)),
              ISODate.string(milliseconds: time) == text
        else { return nil }
        return time
    }
}
