import SwitchboardJSON

/// A save's body applied to an object's fields: plain values set, `{"__op": ...}`
/// operations (`Delete`, `Increment`/`Decrement`, `Add`, `AddUnique`, `Remove`,
/// `BitAnd`/`BitOr`/`BitXor`) applied to what the field holds now. Runs inside the
/// store's transaction, so concurrent increments all count.
struct FieldChanges: Sendable {
    /// The body's changes by key path (`a.b` sets inside an Object field, on update only).
    let changes: [(path: [String], change: JSONValue)]

    /// Reads a body, refusing bad key names; keys LeanStorage sets itself and SDK flags
    /// (`__ignore_hooks`, ...) are left out.
    init(_ body: [String: JSONValue], creating: Bool) throws(StorageError) {
        var changes: [(path: [String], change: JSONValue)] = []
        for (key, value) in body.sorted(by: { $0.key < $1.key }) where !StoredDocument.builtInKeys.contains(key) && !key.hasPrefix("__") {
            let path = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard creating ? path.count == 1 : true else { throw .invalidKey(key) }
            try ClassNames.validate(key: path[0])
            for component in path.dropFirst() where component.isEmpty { throw .invalidKey(key) }
            changes.append((path, value))
        }
        self.changes = changes
    }

    /// The top-level keys the body changes.
    var changedKeys: Set<String> { Set(changes.map { $0.path[0] }) }

    func apply(to fields: inout [String: JSONValue]) throws(StorageError) {
        for (path, change) in changes {
            var root = JSONValue.object(fields)
            try Self.apply(change, at: path[...], in: &root)
            fields = root.objectValue ?? [:]
        }
    }

    private static func apply(_ change: JSONValue, at path: ArraySlice<String>, in container: inout JSONValue) throws(StorageError) {
        guard var members = container.objectValue else {
            throw .incorrectType("\(path.joined(separator: ".")) is inside a value that is not an object")
        }
        let key = path[path.startIndex]
        if path.count > 1 {
            var inner = members[key] ?? .object([:])
            try apply(change, at: path.dropFirst(), in: &inner)
            members[key] = inner
        } else {
            members[key] = try result(of: change, on: members[key], key: key)
        }
        container = .object(members)
    }

    /// What a field holds after `change`: nil deletes it.
    private static func result(of change: JSONValue, on current: JSONValue?, key: String) throws(StorageError) -> JSONValue? {
        guard let operation = change["__op"]?.stringValue else { return change }
        switch operation {
        case "Delete":
            return nil
        case "Increment", "Decrement":
            guard let amount = change["amount"], amount.isNumber else { throw .incorrectType("\(operation) of \(key) needs a numeric amount") }
            let base = current ?? .int(0)
            guard base.isNumber else { throw .incorrectType("\(key) is not a number") }
            let sum = base.adding(operation == "Decrement" ? amount.negated : amount)
            if case .double(let value) = sum, !value.isFinite { throw .incorrectType("\(operation) of \(key) goes past the largest number JSON holds") }
            return sum
        case "Add", "AddUnique", "Remove":
            guard let objects = change["objects"]?.arrayValue else { throw .malformed("\(operation) of \(key) needs an objects array") }
            let list: [JSONValue]
            switch current {
            case nil, .null: list = []
            case .array(let elements): list = elements
            default: throw .incorrectType("\(key) is not an array")
            }
            switch operation {
            case "Add": return .array(list + objects)
            case "AddUnique":
                var result = list
                for object in objects where !result.contains(where: { sameValue($0, object) }) { result.append(object) }
                return .array(result)
            default:
                return .array(list.filter { element in !objects.contains { sameValue(element, $0) } })
            }
        case "BitAnd", "BitOr", "BitXor":
            guard let value = change["value"]?.int64Value else { throw .incorrectType("\(operation) of \(key) needs an integer value") }
            let base: Int64
            switch current {
            case nil, .null: base = 0
            default:
                guard let number = current?.int64Value else { throw .incorrectType("\(key) is not an integer") }
                base = number
            }
            return .int(operation == "BitAnd" ? base & value : operation == "BitOr" ? base | value : base ^ value)
        case "AddRelation", "RemoveRelation", "Batch":
            throw .unsupported("Relations (\(operation) on \(key)); keep an array of pointers instead")
        default:
            throw .malformed("unknown __op \(operation) on \(key)")
        }
    }

    /// Equal as queries see it: numbers of one value, pointers by class and id.
    private static func sameValue(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if let left = IndexEntries.key(for: a), let right = IndexEntries.key(for: b) { return left == right }
        return DocumentFilter.comparable(a) == DocumentFilter.comparable(b)
    }
}

private extension JSONValue {
    var isNumber: Bool {
        switch self {
        case .int, .double: true
        default: false
        }
    }

    var negated: JSONValue {
        switch self {
        case .int(let value): .int(-value)
        case .double(let value): .double(-value)
        default: self
        }
    }

    /// Whole numbers stay whole (LeanCloud recommends integer counters); a fraction makes a double.
    func adding(_ other: JSONValue) -> JSONValue {
        switch (self, other) {
        case (.int(let a), .int(let b)):
            let (sum, overflow) = a.addingReportingOverflow(b)
            return overflow ? .double(Double(a) + Double(b)) : .int(sum)
        case (.int(let a), .double(let b)): return .double(Double(a) + b)
        case (.double(let a), .int(let b)): return .double(a + Double(b))
        case (.double(let a), .double(let b)): return .double(a + b)
        default: return self
        }
    }
}
