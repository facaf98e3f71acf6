import Foundation

/// LeanCloud's sort strings (`order=-updatedAt,name`): comma-separated keys, `-` for
/// descending, compared as `DocumentFilter` compares values; missing values sort last
/// either way.
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
            let a = lhs[key].map(DocumentFilter.comparable) ?? .null
            let b = rhs[key].map(DocumentFilter.comparable) ?? .null
            switch (a, b) {
            case (.null, .null): continue
            case (.null, _): return false
            case (_, .null): return true
            default:
                guard let order = DocumentFilter.order(a, b), order != 0 else { continue }
                return ascending ? order < 0 : order > 0
            }
        }
        return false
    }
}
