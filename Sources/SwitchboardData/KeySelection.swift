import SwitchboardJSON

/// `keys=title,author.nick` or `keys=-body`: which fields of an answer's objects come
/// back. `objectId`, `createdAt` and `updatedAt` (and a pointer's `__type` and
/// `className`) always do unless excluded by name; dotted names reach into Object fields
/// and included pointers, each of an array's too.
public struct KeySelection: Sendable {
    private let kept: [[String]]
    private let dropped: [[String]]

    public init(_ keys: [String]) {
        kept = keys.filter { !$0.hasPrefix("-") }.map { $0.split(separator: ".").map(String.init) }
        dropped = keys.filter { $0.hasPrefix("-") }.map { $0.dropFirst().split(separator: ".").map(String.init) }
    }

    public var isEmpty: Bool { kept.isEmpty && dropped.isEmpty }

    public func apply(to object: JSONValue) -> JSONValue {
        var result = kept.isEmpty ? object : Self.keep(kept, of: object)
        for path in dropped where !path.isEmpty { result = Self.drop(path[...], from: result) }
        return result
    }

    private static let alwaysKept: Set<String> = ["objectId", "createdAt", "updatedAt", "__type", "className"]

    private static func keep(_ paths: [[String]], of value: JSONValue) -> JSONValue {
        if case .array(let elements) = value { return .array(elements.map { keep(paths, of: $0) }) }
        guard let members = value.objectValue else { return value }
        var result = members.filter { alwaysKept.contains($0.key) }
        for (name, group) in Dictionary(grouping: paths.filter { !$0.isEmpty }, by: { $0[0] }) {
            guard let field = members[name] else { continue }
            let deeper = group.map { Array($0.dropFirst()) }
            // A bare name keeps the whole field even when a dotted one names part of it.
            result[name] = deeper.contains(where: \.isEmpty) ? field : keep(deeper, of: field)
        }
        return .object(result)
    }

    private static func drop(_ path: ArraySlice<String>, from value: JSONValue) -> JSONValue {
        if case .array(let elements) = value { return .array(elements.map { drop(path, from: $0) }) }
        guard var members = value.objectValue, let name = path.first else { return value }
        if path.count == 1 {
            members[name] = nil
        } else if let field = members[name] {
            members[name] = drop(path.dropFirst(), from: field)
        }
        return .object(members)
    }
}
