import Foundation
import SwitchboardJSON

/// The index every app class has: for each top-level field, a key per value it holds
/// (each element of an array), so that an equality, `$in` or `$all` on any field reads
/// only the documents that can match. Stores keep the entries beside the documents
/// (`storage_key`); `LocalAppData` asks for documents by key and checks each one with the
/// full `where`, so an entry only has to be a superset of what matches.
public enum IndexEntries {
    /// Scalars longer than this are not indexed: a lookup for such a value reads the class.
    static let maxKeyBytes = 256
    /// Arrays past this many elements are entered as `overflow`, found by any lookup.
    static let maxArrayElements = 1000
    /// The key of a field whose values are not all entered; every lookup of the field reads it.
    public static let overflow = "*"

    /// The (field, key) pairs of a document's fields.
    public static func of(_ fields: [String: JSONValue]) -> Set<Entry> {
        var entries = Set<Entry>()
        for (field, value) in fields {
            if case .array(let elements) = value {
                if elements.count > maxArrayElements {
                    entries.insert(Entry(field: field, key: overflow))
                    continue
                }
                for element in elements {
                    if let key = key(for: element) { entries.insert(Entry(field: field, key: key)) }
                }
            } else if let key = key(for: value) {
                entries.insert(Entry(field: field, key: key))
            }
        }
        return entries
    }

    public struct Entry: Hashable, Sendable {
        public let field: String
        public let key: String
    }

    /// The key a value is entered under, nil for values no lookup uses (null, objects
    /// other than dates and pointers, long strings): values `DocumentFilter` finds equal
    /// have the same key, and a value without a key never equals one with a key.
    public static func key(for value: JSONValue) -> String? {
        switch value {
        case .string(let text):
            let canonical = canonical(text)
            return canonical.utf8.count <= maxKeyBytes ? JSONValue.string(canonical).jsonString : nil
        case .int, .double, .bool:
            return DocumentFilter.comparable(value).jsonString
        case .object:
            switch value["__type"]?.stringValue {
            case "Pointer":
                guard let className = value["className"]?.stringValue, let id = value["objectId"]?.stringValue else { return nil }
                return "Pointer:" + canonical(className) + ":" + canonical(id)
            case "Date" where value["iso"] != nil:
                // Keyed as what it compares as: its ISO text, or whatever else its iso holds.
                return key(for: DocumentFilter.comparable(value))
            default:
                return nil
            }
        default:
            return nil
        }
    }

    /// Text in one form (NFC) for all that Swift, and so `DocumentFilter`, finds equal (é
    /// composed or as e and an accent), where stores compare keys byte by byte.
    private static func canonical(_ text: String) -> String {
        text.utf8.allSatisfy { $0 < 0x80 } ? text : text.precomposedStringWithCanonicalMapping
    }

    /// The keys a `where` condition on a top-level field pins it to: an equality, `$eq`,
    /// `$in` (any of), or `$all` (its first value); none for an `$in` or `$all` of nothing,
    /// which matches nothing; nil when the condition does not pin the field to keyed values.
    public static func lookupKeys(for condition: JSONValue) -> [String]? {
        if let operators = condition.objectValue, operators.keys.contains(where: { $0.hasPrefix("$") }) {
            if let value = operators["$eq"] { return key(for: value).map { [$0] } }
            if let values = operators["$in"]?.arrayValue {
                let keys = values.compactMap(key(for:))
                return keys.count == values.count ? keys : nil
            }
            if let values = operators["$all"]?.arrayValue { return values.first.map { key(for: $0).map { [$0] } } ?? [] }
            return nil
        }
        return key(for: condition).map { [$0] }
    }
}
