import Foundation

/// LeanCloud's sort strings (`order=-updatedAt,name`): comma-separated keys (dotted ones
/// reach into objects, as in `where`), `-` for descending, compared as `DocumentFilter`
/// compares values; values of different kinds by kind, as MongoDB sorted them for
/// LeanStorage (numbers, text and dates, objects and pointers, arrays, booleans); missing
/// values sort last either way.
public struct DocumentOrdering: Sendable {
    public let keys: [(name: String, ascending: Bool)]

    public init(_ sort: String) {
        keys = sort.split(separator: ",").compactMap { key in
            let trimmed = key.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { return nil }
            return trimmed.hasPrefix("-") ? (String(trimmed.dropFirst()), false) : (trimmed, true)
        }
    }

    /// True when `lhs` sorts before `rhs`.
    public func inOrder(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        for (key, ascending) in keys {
            let a = DocumentFilter.value(at: key, in: lhs).map(DocumentFilter.comparable) ?? .null
            let b = DocumentFilter.value(at: key, in: rhs).map(DocumentFilter.comparable) ?? .null
            switch (a, b) {
            case (.null, .null): continue
            case (.null, _): return false
            case (_, .null): return true
            default:
                let order = DocumentFilter.order(a, b) ?? Self.order(ofKinds: a, b)
                guard order != 0 else { continue }
                return ascending ? order < 0 : order > 0
            }
        }
        return false
    }

    /// Values `DocumentFilter.order` does not compare: by kind, then two objects or two
    /// arrays by their JSON text. Sorting needs every pair in one order: one kind's values
    /// all before another's.
    private static func order(ofKinds a: JSONValue, _ b: JSONValue) -> Int {
        let (left, right) = (rank(a), rank(b))
        if left != right { return left < right ? -1 : 1 }
        let (leftText, rightText) = (a.jsonString, b.jsonString)
        return leftText == rightText ? 0 : (leftText < rightText ? -1 : 1)
    }

    private static func rank(_ value: JSONValue) -> Int {
        switch value {
        case .null: 0
        case .int, .double: 1
        case .string: 2
        case .object: 3
        case .array: 4
        case .bool: 5
        }
    }
}
